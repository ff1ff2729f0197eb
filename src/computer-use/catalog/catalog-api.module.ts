import { Module } from '@nestjs/common';
import { PlanningModule } from '../planning/planning.module';
import { CatalogModule } from './catalog.module';
import { PlannersController } from './planners.controller';

/** The planners' API: the catalog, and the scripted planners' CRUD. */
@Module({ imports: [CatalogModule, PlanningModule], controllers: [PlannersController] })
export class CatalogApiModule {}
