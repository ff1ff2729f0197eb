import { AuditService } from '../audit/audit.service';
import type { CliFamily } from './cli-call';
import { withContext } from './cli-context';
import { report } from './audit-report';
import { USAGE } from './usage';

/** `audit verify --tenant`: the tenant's hash chain recomputed from the database. */
export const audit: CliFamily = {
  async run({ command, values }) {
    if (command !== 'verify') {
      console.error(USAGE);
      return 2;
    }
    if (!values.tenant) {
      console.error('audit verify needs --tenant (or --file with an export)');
      return 2;
    }
    const tenant = values.tenant;
    return withContext({}, async (app) => report(await app.get(AuditService).verify(tenant)));
  },
};
