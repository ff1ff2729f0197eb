import { Module } from '@nestjs/common';
import { ScreenHostClient } from './screen-host.client';

/**
 * The client side of the screen host protocol (docs/screen-host.md): ScreenHostClient hands out a host per
 * agent configuration, its connections pooled per screen URL and TLS trust.
 */
@Module({ providers: [ScreenHostClient], exports: [ScreenHostClient] })
export class HostClientModule {}
