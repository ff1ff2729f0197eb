import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TenantsModule } from '../tenants/tenants.module';
import { AccessController } from './access/access.controller';
import { AccessRepository } from './access/access.repository';
import { AccessService } from './access/access.service';
import { BearerStrategy } from './bearer.strategy';
import { MeController } from './me.controller';
import { PermissionsGuard } from './permissions.guard';
import { SessionsRepository } from './sessions/sessions.repository';
import { SessionsService } from './sessions/sessions.service';
import { SubjectTagsRepository } from './subject-tags.repository';
import { TokensService } from './tokens.service';

@Module({
  imports: [PassportModule, TenantsModule],
  controllers: [MeController, AccessController],
  providers: [
    TokensService,
    BearerStrategy,
    SessionsRepository,
    SessionsService,
    AccessRepository,
    AccessService,
    SubjectTagsRepository,
    { provide: APP_GUARD, useClass: PermissionsGuard },
  ],
  exports: [TokensService, SessionsService, SessionsRepository],
})
export class AuthModule {}
