import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type FileHandle, open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import type { VerifyResult } from './audit/audit-chain';
import { AuditService } from './audit/audit.service';
import { verifyExport } from './audit/verify-export';
import { CoreModule } from './core.module';
import { PlannerAccessModule } from './computer-use/catalog/planner-access.module';
import { PlannerAccess } from './computer-use/catalog/planner-access.service';
import { plannersCommand, PLANNERS_USAGE } from './computer-use/catalog/planners-cli';
import { remoteCommand, REMOTE_USAGE } from './computer-use/remote/remote-cli';
import { RemoteFamiliesModule } from './computer-use/remote/remote-families.module';
import { RemoteFamilies } from './computer-use/remote/remote-families.service';
import { RetentionModule } from './computer-use/retention/retention.module';
import { RetentionService } from './computer-use/retention/retention.service';
import { ScreenRekey } from './computer-use/screens/screen-rekey.service';
import { ScreensModule } from './computer-use/screens/screens.module';
import { TokensService } from './auth/tokens.service';
import { loadConfig } from './config/app-config';
import { destinationsCommand, DESTINATIONS_USAGE } from './destinations/destinations-cli';
import { Destinations } from './destinations/destinations.service';
import { operatorName, SecretGrants } from './secrets/secret-grants.service';
import { SecretsModule } from './secrets/secrets.module';
import { TenantsModule } from './tenants/tenants.module';

const USAGE = `usage: npm run cli -- <command>
  token create --tenant <tenant> --subject <who> --permissions <p1,p2,...> [--families <f1,f2>]
        planners.serve (a remote planner's worker) needs --families: the families it may serve
        prints the new token alone on the last line of stdout; it is shown only once
  token list [--tenant <tenant>]
  token revoke <token-id>
  secrets grant --tenant <tenant> --env <VARIABLE> --to <https://host:port> [--to …]
        lets Warden send the variable's value (a screen host token, a model key) to that origin
        on the tenant's behalf (which grants the origin as a destination too); Warden's own
        variables are refused
  secrets list [--tenant <tenant>]
  secrets revoke --tenant <tenant> --env <VARIABLE> --to <https://host:port>
${DESTINATIONS_USAGE}
${PLANNERS_USAGE}
${REMOTE_USAGE}
  screens purge [--tenant <tenant>] [--as-of <time>] [--early]
        drop the PNG bytes of screens past their tenant's retention (what the workers' daily job
        does; screens of a held run are kept), now or as if it were --as-of (ISO 8601 with its
        zone, 2027-06-01T00:00:00Z); a time after now drops screens early and needs --early
  audit verify --tenant <tenant>
        recompute the tenant's hash chain from the database, as GET /api/audit/verify answers
  audit verify --file <export.ndjson>
        the same check of an NDJSON export (GET /api/audit, Accept: application/x-ndjson, no
        filter), with no database; both exit 1 when the chain does not verify
  screens rekey                 re-encrypt every kept screen under the current screen key
        (SCREEN_KEYS_ENV; plaintext screens too); resumable, in batches
  migrate                       apply pending database migrations`;

@Module({})
class CliModule {}

/** Operator commands run on a machine with database access; recorded in the audit log as `cli`. */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: 'string' },
      subject: { type: 'string' },
      permissions: { type: 'string' },
      families: { type: 'string' },
      family: { type: 'string' },
      version: { type: 'string' },
      effort: { type: 'string' },
      deadline: { type: 'string' },
      pixels: { type: 'string' },
      tags: { type: 'string' },
      programs: { type: 'string' },
      env: { type: 'string' },
      to: { type: 'string', multiple: true },
      note: { type: 'string' },
      planner: { type: 'string' },
      tag: { type: 'string' },
      program: { type: 'string' },
      file: { type: 'string' },
      'as-of': { type: 'string' },
      early: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command, arg] = positionals;
  if (values.help || !group) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  // An export is checked with no database: an auditor may have the file alone.
  if (group === 'audit' && command === 'verify' && values.file !== undefined) {
    if (values.tenant !== undefined) {
      console.error('audit verify takes --tenant (the database) or --file (an export), not both');
      return 2;
    }
    return verifyFile(values.file);
  }
  const app = await NestFactory.createApplicationContext(
    {
      module: CliModule,
      imports: [
        CoreModule.forRoot(loadConfig()),
        TenantsModule,
        SecretsModule,
        RetentionModule,
        ScreensModule,
        PlannerAccessModule,
        RemoteFamiliesModule,
      ],
      providers: [TokensService],
    },
    { logger: ['error'] },
  );
  try {
    if (group === 'migrate') {
      const ran = await app.get(DataSource).runMigrations({ transaction: 'each' });
      console.log(
        ran.length ? `applied ${ran.map((m) => m.name).join(', ')}` : 'no pending migrations',
      );
      return 0;
    }
    if (group === 'secrets') return await secrets(app.get(SecretGrants), command, values);
    if (group === 'destinations') {
      return await destinationsCommand(app.get(Destinations), command, values, operatorName());
    }
    if (group === 'planners' && command === 'remote') {
      return await remoteCommand(
        app.get(RemoteFamilies),
        arg,
        {
          family: values.family,
          version: values.version,
          effort: values.effort,
          deadline: values.deadline,
          pixels: values.pixels,
          tags: values.tags,
          programs: values.programs,
          note: values.note,
        },
        operatorName(),
      );
    }
    if (group === 'planners') {
      return await plannersCommand(app.get(PlannerAccess), command, arg, values, operatorName());
    }
    if (group === 'audit' && command === 'verify') {
      if (!values.tenant) {
        console.error('audit verify needs --tenant (or --file with an export)');
        return 2;
      }
      return report(await app.get(AuditService).verify(values.tenant));
    }
    if (group === 'screens' && command === 'purge') {
      const asOf = purgeTime(values['as-of'], values.early === true);
      if (typeof asOf === 'string') {
        console.error(asOf);
        return 2;
      }
      const result = await app.get(RetentionService).purge({ now: asOf, tenant: values.tenant });
      console.log(
        result.ran
          ? `purged ${result.purged} screens in ${result.batches} batches, as of ${asOf.toISOString()}${values.tenant ? ` for tenant ${values.tenant}` : ''}`
          : 'another purge is running (a worker holds the lock); nothing done',
      );
      return 0;
    }
    if (group === 'screens' && command === 'rekey') {
      const result = await app.get(ScreenRekey).rekey();
      console.log(
        `re-encrypted ${result.rekeyed} screens under key ${result.key_id} in ${result.batches} batches`,
      );
      for (const { key_id, screens } of result.by_key) {
        console.log(`  ${key_id ?? '(plaintext)'}: ${screens} screens`);
      }
      return 0;
    }
    const tokens = app.get(TokensService);
    if (group === 'token' && command === 'create') {
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
    if (group === 'token' && command === 'list') {
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
    if (group === 'token' && command === 'revoke' && arg) {
      const info = await tokens.revoke(arg, 'cli');
      console.log(
        `revoked token ${info.id} (${info.subject} in ${info.tenant}) at ${info.revoked_at}`,
      );
      return 0;
    }
    console.error(USAGE);
    return 2;
  } finally {
    await app.close();
  }
}

/** `secrets grant|list|revoke`: the deployment operator's grants (docs/screen-host.md), audited as the OS user. */
async function secrets(
  grants: SecretGrants,
  command: string | undefined,
  values: { tenant?: string; env?: string; to?: string[] },
): Promise<number> {
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
}

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

/** `audit verify --file`: checks an export with the walk the API uses (src/audit/audit-chain.ts). */
async function verifyFile(path: string): Promise<number> {
  let file: FileHandle;
  try {
    file = await open(path);
  } catch (error) {
    console.error(`cannot read ${path}: ${(error as Error).message}`);
    return 2;
  }
  try {
    const result = await verifyExport(file.readLines());
    if (result.problem) console.error(result.problem);
    return report(result);
  } finally {
    await file.close();
  }
}

/** Prints a verify result as the API answers it (JSON); 0 when the chain verifies, 1 when not. */
function report(result: VerifyResult): number {
  console.log(JSON.stringify(result));
  if (!result.ok && result.first_bad_id) {
    console.error(
      `the chain is broken at event ${result.first_bad_id} (after ${result.checked - 1} intact): changed, removed or out of place`,
    );
  }
  return result.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
