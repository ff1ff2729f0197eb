import type { Destinations } from './destinations.service';

export const DESTINATIONS_USAGE = `  destinations grant --tenant <tenant> --to <origin> [--to …] [--note <why>]
        lets Warden connect to that origin on the tenant's behalf: https://host:port (http:// on
        loopback), tls://host:port (a syslog sink), smtp://host:port or smtps://host:port;
        --to default-model and --to smtp name this deployment's default model and SMTP server,
        --to <id> of a MODEL_PLANNERS planner that planner's endpoint
  destinations list [--tenant <tenant>]   (origins a secret grant grants are listed too)
  destinations revoke --tenant <tenant> --to <origin>`;

/**
 * `destinations grant|list|revoke`: the deployment operator's destination grants (docs/screen-host.md
 * "Destinations"), audited in the tenant's chain as `actor` (the OS user). Answers the exit code.
 */
export async function destinationsCommand(
  destinations: Destinations,
  command: string | undefined,
  values: { tenant?: string; to?: string[]; note?: string },
  actor: string,
): Promise<number> {
  if (command === 'list') {
    const rows = await destinations.list(values.tenant);
    if (rows.length === 0) console.log('no destinations granted');
    else console.table(rows);
    return 0;
  }
  if (command !== 'grant' && command !== 'revoke') {
    console.error(DESTINATIONS_USAGE);
    return 2;
  }
  if (!values.tenant || !values.to?.length) {
    console.error(`destinations ${command} needs --tenant and --to`);
    return 2;
  }
  if (command === 'revoke' && values.note !== undefined) {
    console.error('destinations revoke takes no --note');
    return 2;
  }
  let missing = 0;
  for (const to of values.to) {
    if (command === 'grant') {
      const grant = await destinations.grant(values.tenant, to, values.note, actor);
      console.log(
        `granted ${grant.to} for tenant ${grant.tenant} (by ${grant.granted_by} at ${grant.granted_at})`,
      );
      continue;
    }
    const { revoked, origin, secretGrants } = await destinations.revoke(values.tenant, to, actor);
    if (revoked) console.log(`revoked ${revoked.to} for tenant ${revoked.tenant}`);
    else {
      console.error(`no destination grant of ${origin} for tenant ${values.tenant}`);
      missing++;
    }
    if (secretGrants.length > 0) {
      // Still reachable: the origin stays granted while a secret grant names it.
      console.error(
        `${origin} stays granted for tenant ${values.tenant} by the secret grants of ${secretGrants.join(', ')}; revoke them with \`npm run cli -- secrets revoke --tenant ${values.tenant} --env <VARIABLE> --to ${origin}\``,
      );
      missing++;
    }
  }
  return missing > 0 ? 1 : 0;
}
