import { Module } from '@nestjs/common';
import { AuthModule } from '../auth.module';
import { OidcClientService } from './oidc-client.service';
import { OidcController } from './oidc.controller';
import { OidcLoginsRepository } from './oidc-logins.repository';

/** Sign-in through the company's identity provider (OpenID Connect): the browser routes. */
@Module({
  imports: [AuthModule],
  controllers: [OidcController],
  providers: [OidcClientService, OidcLoginsRepository],
})
export class OidcModule {}
