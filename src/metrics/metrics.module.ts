import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { OperationsMetrics } from './operations-metrics.service';
import { OperationsMetricsRepository } from './operations-metrics.repository';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, OperationsMetrics, OperationsMetricsRepository],
  exports: [MetricsService],
})
export class MetricsModule {}
