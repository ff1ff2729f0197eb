import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Redis } from 'ioredis';
import { Public } from '../auth/permissions.decorator';
import { REDIS } from '../redis/redis.module';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** The process answers. */
  @Get('live')
  @Public()
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness: the process answers' })
  live() {
    return this.health.check([]);
  }

  /** PostgreSQL and Redis answer: 503 otherwise. */
  @Get('ready')
  @Public()
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: PostgreSQL and Redis answer' })
  ready() {
    return this.health.check([
      () => this.db.pingCheck('database').withTimeout(2000),
      () =>
        this.indicators
          .check('redis')
          .attempt(async () => {
            if ((await this.redis.ping()) !== 'PONG') throw new Error('unexpected PING answer');
          })
          .withTimeout(2000),
    ]);
  }
}
