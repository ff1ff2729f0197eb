import { TokensService } from '../auth/tokens.service';
import { TenantsModule } from '../tenants/tenants.module';
import type { CliFamily } from './cli-call';
import { withContext } from './cli-context';
import { USAGE } from './usage';

/** `token create|list|revoke`: API tokens, audited as `cli`. */
export const tokens: CliFamily = {
  run: ({ command, arg, values }) =>
    withContext({ imports: [TenantsModule], providers: [TokensService] }, async (app) => {
      const tokens = app.get(TokensService);
      if (command === 'create') {
        if (!values.tenant || !values.subject || !values.permissions) {
          console.error('token create needs --tenant, --subject and --permissions');
          return 2;
        }
        const permissions = values.permissions
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean);
        const { info, token } = await tokens.create(
          values.tenant,
          values.subject,
          permissions,
          'cli',
          (values.families ?? '')
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean),
        );
        console.log(
          `created token ${info.id} for ${info.subject} in ${info.tenant}: ${info.permissions.join(', ')}`,
        );
        console.log('store it now; Warden keeps only its SHA-256 and cannot show it again:');
        console.log(token);
        return 0;
      }
      if (command === 'list') {
        const rows = await tokens.list(values.tenant);
        console.table(
          rows.map((t) => ({
            ...t,
            permissions: t.permissions.join(','),
            planner_families: t.planner_families.join(','),
            revoked_at: t.revoked_at ?? '',
          })),
        );
        return 0;
      }
      if (command === 'revoke' && arg) {
        const info = await tokens.revoke(arg, 'cli');
        console.log(
          `revoked token ${info.id} (${info.subject} in ${info.tenant}) at ${info.revoked_at}`,
        );
        return 0;
      }
      console.error(USAGE);
      return 2;
    }),
};
