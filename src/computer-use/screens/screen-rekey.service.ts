import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ScreenCryptoError } from './screen-crypto';
import { ScreenKeys } from './screen-keys';
import { ScreensRepository } from './screens.repository';
import { ScreensService } from './screens.service';

export interface RekeyResult {
  /** Screens re-encrypted under `key_id` (plaintext ones included). */
  rekeyed: number;
  batches: number;
  key_id: string;
  /** Kept screens per key id after the run (`null`: plaintext). */
  by_key: Array<{ key_id: string | null; screens: number }>;
}

/**
 * `npm run cli -- screens rekey`: re-encrypts every kept screen that is not under the current
 * screen key (older keys, plaintext rows) in transactions of `batch` screens. Each batch commits on
 * its own, so an interrupted rekey loses nothing and the next one goes on from what is left.
 */
@Injectable()
export class ScreenRekey {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: ScreensRepository,
    private readonly screens: ScreensService,
    private readonly keys: ScreenKeys,
  ) {}

  async rekey(options: { batch?: number; maxBatches?: number } = {}): Promise<RekeyResult> {
    const keyring = this.keys.keyring();
    if (!keyring) {
      throw new ScreenCryptoError(
        'screens rekey needs SCREEN_KEYS_ENV: without screen keys screens are stored in plaintext',
      );
    }
    const batch = options.batch ?? 200;
    const maxBatches = options.maxBatches ?? Number.MAX_SAFE_INTEGER;
    let rekeyed = 0;
    let batches = 0;
    while (batches < maxBatches) {
      const done = await this.dataSource.transaction(async (manager) => {
        const rows = await this.repository.notUnder(manager, keyring.current.id, batch);
        for (const row of rows) {
          const png = this.screens.open(row.tenant, row.sha256, row);
          const sealed = this.screens.seal(row.tenant, row.sha256, png);
          await this.repository.rewrite(manager, row.tenant, row.sha256, sealed);
        }
        return rows.length;
      });
      if (done === 0) break;
      batches += 1;
      rekeyed += done;
      if (done < batch) break;
    }
    return {
      rekeyed,
      batches,
      key_id: keyring.current.id,
      by_key: await this.repository.countByKey(),
    };
  }
}
