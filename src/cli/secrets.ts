import { operatorName, SecretGrants } from '../secrets/secret-grants.service';
import { SecretsModule } from '../secrets/secrets.module';
import type { CliFamily } from './cli-call';
import { withContext } from './cli-context';
import { USAGE } from './usage';

/**
 * `secrets grant|list|revoke`: the deployment operator's grants (docs/screen-host.md), audited as the
 * OS user.
 */
export const secrets: CliFamily = {
  run: ({ command, values }) =>
    withContext({ imports: [SecretsModule] }, async (app) => {
      const grants = app.get(SecretGrants);
      if (command === 'list') {
        const rows = await grants.list(values.tenant);
        if (rows.length === 0) console.log('no grants');
        else console.table(rows);
        return 0;
      }
      if (command !== 'grant' && command !== 'revoke') {
        console.error(USAGE);
        return 2;
      }
      if (!values.tenant || !values.env || !values.to?.length) {
        console.error(`secrets ${command} needs --tenant, --env and --to`);
        return 2;
      }
      const actor = operatorName();
      let missing = 0;
      for (const to of values.to) {
        if (command === 'grant') {
          const grant = await grants.grant(values.tenant, values.env, to, actor);
          console.log(
            `granted ${grant.env} to ${grant.to} for tenant ${grant.tenant} (by ${grant.granted_by} at ${grant.granted_at})`,
          );
          continue;
        }
        const revoked = await grants.revoke(values.tenant, values.env, to, actor);
        if (revoked) {
          console.log(`revoked ${revoked.env} to ${revoked.to} for tenant ${revoked.tenant}`);
        } else {
          console.error(`no grant of ${values.env} to ${to} for tenant ${values.tenant}`);
          missing++;
        }
      }
      return missing > 0 ? 1 : 0;
    }),
};
