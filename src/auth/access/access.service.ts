import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { forbidden, invalid } from '../../common/domain-error';
import { TenantsService } from '../../tenants/tenants.service';
import type { Caller } from '../caller';
import { AccessMapping, groupsGainingWeaken, readAccessMapping } from './access-mapping';
import { AccessRepository } from './access.repository';

/**
 * Which of the identity provider's groups get which permissions, per tenant (docs/security.md). A
 * session's permissions are computed from this on every request, so a change applies at once.
 */
@Injectable()
export class AccessService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: AccessRepository,
    private readonly tenants: TenantsService,
    private readonly audit: AuditService,
  ) {}

  async view(tenant: string): Promise<{ groups: AccessMapping }> {
    return { groups: await this.access.mapping(tenant) };
  }

  async replace(
    caller: Caller,
    groups: Record<string, unknown>,
  ): Promise<{ groups: AccessMapping }> {
    const read = readAccessMapping(groups);
    if ('problem' in read) throw invalid(read.problem);
    const next = read.mapping;
    return this.dataSource.transaction(async (manager) => {
      await this.tenants.ensure(caller.tenant, manager);
      await this.access.lock(manager, caller.tenant);
      const before = await this.access.mapping(caller.tenant, manager);
      // Making admins who may weaken is itself a weakening: only who holds it may (docs/security.md).
      const gaining = groupsGainingWeaken(before, next);
      if (gaining.length > 0 && !caller.permissions.has('governance.weaken')) {
        throw forbidden(
          `${gaining.map((g) => g.change).join('; ')} ${gaining.length === 1 ? 'needs' : 'need'} the permission governance.weaken`,
        );
      }
      await this.access.replace(manager, caller.tenant, next);
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'access.changed',
          actor: caller.subject,
          details: { token_id: caller.tokenId, before, after: next },
        },
        manager,
      );
      return { groups: next };
    });
  }
}
