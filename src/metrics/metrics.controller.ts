import { Controller, Get, Header } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/permissions.decorator';
import { MetricsService } from './metrics.service';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Public()
  @ApiProduces('text/plain')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
