import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { Caller } from '../auth/caller';
import { invalid } from '../common/domain-error';
import { AppConfig } from '../config/app-config';
import { caFileProblem } from '../common/ca-file';
import { Destinations } from '../destinations/destinations.service';
import { SecretGrants } from '../secrets/secret-grants.service';
import { TenantsService } from '../tenants/tenants.service';
import { AuditSinksRepository } from './audit-sinks.repository';
import { parseSinksBody } from './parse-sinks';
import type { SinkConfig } from './sink-config';
import { hecTokenUse, syslogDestination } from './sink-destination';
import { type MissingGrant, sinkStatus, type SinkStatus } from './sink-status';

export interface AuditSinksView {
  sinks: Array<SinkConfig & { status: SinkStatus }>;
}

/**
 * A tenant's audit sinks (docs/security.md): the admin's list, each sink with its delivery status and
 * the grant it lacks, if any (docs/security.md "Destinations"). Every change is an
 * `audit.sinks_changed` event in the same transaction.
 */
@Injectable()
export class AuditSinksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sinks: AuditSinksRepository,
    private readonly tenants: TenantsService,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
    private readonly destinations: Destinations,
    private readonly secrets: SecretGrants,
  ) {}

  async view(tenant: string): Promise<AuditSinksView> {
    const [sinks, states] = await Promise.all([this.sinks.list(tenant), this.sinks.states(tenant)]);
    const missing = await Promise.all(sinks.map((sink) => this.missingGrant(tenant, sink.config)));
    const now = new Date();
    return {
      sinks: sinks.map((sink, i) => {
        const state = states.find((s) => s.name === sink.name)!;
        return { ...sink.config, status: sinkStatus(state, now, missing[i]) };
      }),
    };
  }

  /** The grant the sink needs now and lacks: its origin's for syslog, its token's for HEC. */
  private async missingGrant(tenant: string, sink: SinkConfig): Promise<MissingGrant | null> {
    if (sink.kind === 'syslog') {
      const destination = syslogDestination(tenant, sink);
      return 'problem' in destination ? null : this.destinations.refusal(destination.use);
    }
    const refused = await this.secrets.refusal(hecTokenUse(tenant, sink));
    return refused?.reason === 'not_granted' && refused.fix
      ? { message: refused.message, fix: refused.fix }
      : null;
  }

  async replace(caller: Caller, body: unknown): Promise<AuditSinksView> {
    const sinks = parseSinksBody(body);
    const problems = sinks.flatMap((sink, i) => {
      const problem = sink.ca_file
        ? caFileProblem(this.config.CA_DIR, sink.ca_file, `sinks.${i}.ca_file`)
        : null;
      return problem ? [problem] : [];
    });
    if (problems.length > 0) throw invalid(problems.join('; '));
    const tenant = caller.tenant;
    await this.dataSource.transaction(async (manager) => {
      await this.tenants.ensure(tenant, manager);
      await this.sinks.lockTenant(manager, tenant);
      const before = new Map(
        (await this.sinks.list(tenant, manager)).map((s) => [s.name, JSON.stringify(s.config)]),
      );
      await this.sinks.replace(manager, tenant, sinks, caller.subject);
      const after = new Set(sinks.map((s) => s.name));
      await this.audit.record(
        {
          tenant,
          type: 'audit.sinks_changed',
          actor: caller.subject,
          details: {
            added: sinks.filter((s) => !before.has(s.name)).map((s) => s.name),
            removed: [...before.keys()].filter((name) => !after.has(name)),
            changed: sinks
              .filter((s) => before.has(s.name) && before.get(s.name) !== JSON.stringify(s))
              .map((s) => s.name),
            sinks,
            token_id: caller.tokenId,
          },
        },
        manager,
      );
    });
    return this.view(tenant);
  }
}
