import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { RetentionService } from './retention.service';

/** The purge runs SCREEN_PURGE_DELAY_MS (a minute) after the worker starts, then once a day. */
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The daily screen purge on every worker; the advisory lock in RetentionService.purge makes one
 * worker do it while the others skip. `npm run cli -- screens purge` runs the same purge at once.
 */
@Injectable()
export class ScreenPurgeJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ScreenPurgeJob.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly retention: RetentionService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const tick = () => {
      this.running = this.retention
        .purge()
        .then((result) => {
          if (result.purged > 0) this.logger.log(result, 'screens purged');
        })
        .catch((error: unknown) => this.logger.error({ err: error }, 'screen purge failed'))
        .finally(() => {
          this.timer = setTimeout(tick, DAY_MS);
          this.timer.unref();
        });
    };
    this.timer = setTimeout(tick, this.config.SCREEN_PURGE_DELAY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    await this.running;
    clearTimeout(this.timer);
  }
}
