import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TenantsModule } from '../tenants/tenants.module';
import { BearerStrategy } from './bearer.strategy';
import { MeController } from './me.controller';
import { PermissionsGuard } from './permissions.guard';
import { TokensService } from './tokens.service';

@Module({
  imports: [PassportModule, TenantsModule],
  controllers: [MeController],
  providers: [TokensService, BearerStrategy, { provide: APP_GUARD, useClass: PermissionsGuard }],
  exports: [TokensService],
})
export class AuthModule {}
