import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiOperation, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { Public } from '../auth/permissions.decorator';
import { AppConfig } from '../config/app-config';
import { ownSecret } from '../secrets/own-secret';
import { MetricsService } from './metrics.service';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  /**
   * The process's metrics to anyone; with the deployment's scrape token (`Authorization: Bearer`,
   * the value of the variable METRICS_TOKEN_ENV names) also the series labelled by tenant. Any
   * other bearer (an API token) gets the first part only: tenants' names are not for tenants.
   */
  @Get()
  @Public()
  @ApiOkResponse({
    description: 'the Prometheus text format',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics' })
  async scrape(@Req() request: FastifyRequest): Promise<string> {
    const open = await this.metrics.registry.metrics();
    if (!this.isScraper(request.headers.authorization)) return open;
    return `${open}\n${await this.metrics.tenantRegistry.metrics()}`;
  }

  private isScraper(authorization: string | undefined): boolean {
    const envName = this.config.METRICS_TOKEN_ENV;
    const expected = envName ? ownSecret(envName) : undefined;
    if (!expected || !authorization?.startsWith('Bearer ')) return false;
    const given = Buffer.from(authorization.slice('Bearer '.length));
    const want = Buffer.from(expected);
    return given.length === want.length && timingSafeEqual(given, want);
  }
}
