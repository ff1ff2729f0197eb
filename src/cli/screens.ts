import { RetentionModule } from '../computer-use/retention/retention.module';
import { RetentionService } from '../computer-use/retention/retention.service';
import { ScreenRekey } from '../computer-use/screens/screen-rekey.service';
import { ScreensModule } from '../computer-use/screens/screens.module';
import type { CliFamily } from './cli-call';
import { withContext } from './cli-context';
import { USAGE } from './usage';

/** `screens purge` (what the workers' daily job does) and `screens rekey`. */
export const screens: CliFamily = {
  async run({ command, values }) {
    if (command === 'purge') {
      const asOf = purgeTime(values['as-of'], values.early === true);
      if (typeof asOf === 'string') {
        console.error(asOf);
        return 2;
      }
      return withContext({ imports: [RetentionModule] }, async (app) => {
        const result = await app.get(RetentionService).purge({ now: asOf, tenant: values.tenant });
        console.log(
          result.ran
            ? `purged ${result.purged} screens in ${result.batches} batches, as of ${asOf.toISOString()}${values.tenant ? ` for tenant ${values.tenant}` : ''}`
            : 'another purge is running (a worker holds the lock); nothing done',
        );
        return 0;
      });
    }
    if (command === 'rekey') {
      return withContext({ imports: [ScreensModule] }, async (app) => {
        const result = await app.get(ScreenRekey).rekey();
        console.log(
          `re-encrypted ${result.rekeyed} screens under key ${result.key_id} in ${result.batches} batches`,
        );
        for (const { key_id, screens } of result.by_key) {
          console.log(`  ${key_id ?? '(plaintext)'}: ${screens} screens`);
        }
        return 0;
      });
    }
    console.error(USAGE);
    return 2;
  },
};

/**
 * The moment `screens purge` runs as of: now, or `--as-of`, a time with its zone. A time after now
 * would drop screens before their tenant's retention ends: refused without `--early`.
 */
function purgeTime(raw: string | undefined, early: boolean): Date | string {
  if (raw === undefined) return new Date();
  const asOf = new Date(raw);
  if (
    !/(Z|[+-]\d\d:\d\d)$/.test(raw) ||
    !/^\d{4}-\d\d-\d\d/.test(raw) ||
    Number.isNaN(asOf.getTime())
  ) {
    return `--as-of must be an ISO 8601 time with its zone, like 2027-06-01T00:00:00Z (not ${raw})`;
  }
  if (asOf.getTime() > Date.now() && !early) {
    return `--as-of ${raw} is after now: screens would be dropped before their tenant's retention ends; add --early to do so`;
  }
  return asOf;
}
