import { Injectable } from '@nestjs/common';
import { sha256Hex } from '../common/sha256';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { invalid, notFound } from '../common/domain-error';
import { PLANNER_FAMILY } from '../config/planner-id';
import { TenantsService } from '../tenants/tenants.service';
import { ApiToken } from './api-token.entity';
import type { Caller } from './caller';
import { isPermission, Permission, PERMISSIONS } from './permission';

/** Tokens look like `wdn_<43 base64url characters>`: the prefix lets logs and scanners spot them. */
export const TOKEN_PREFIX = 'wdn_';
export const TOKEN_PATTERN = /wdn_[A-Za-z0-9_-]{43}/g;

export { sha256Hex };

export interface TokenInfo {
  id: string;
  tenant: string;
  subject: string;
  permissions: Permission[];
  /** The remote planner families a `planners.serve` token may serve. */
  planner_families: string[];
  created_at: string;
  revoked_at: string | null;
}

@Injectable()
export class TokensService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenants: TenantsService,
    private readonly audit: AuditService,
  ) {}

  /** Creates a token; the clear token is returned here once and never stored. */
  async create(
    tenant: string,
    subject: string,
    permissions: string[],
    actor: string,
    plannerFamilies: string[] = [],
  ): Promise<{ info: TokenInfo; token: string }> {
    const unknown = permissions.filter((p) => !isPermission(p));
    if (unknown.length > 0) {
      throw invalid(`unknown permission ${unknown.join(', ')}: one of ${PERMISSIONS.join(', ')}`);
    }
    const serves = permissions.includes('planners.serve');
    if (serves !== plannerFamilies.length > 0) {
      throw invalid(
        serves
          ? 'planners.serve is scoped to remote planner families: name them with --families'
          : '--families goes with the permission planners.serve only',
      );
    }
    const badFamily = plannerFamilies.find((f) => !PLANNER_FAMILY.test(f) || f.length > 100);
    if (badFamily !== undefined) {
      throw invalid(
        `${JSON.stringify(badFamily.slice(0, 100))} is not a planner family: lower-case words joined by hyphens`,
      );
    }
    if (!/^\S.{0,199}$/.test(subject)) {
      throw invalid('subject must be 1-200 characters and not start with a space');
    }
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const saved = await this.dataSource.transaction(async (manager) => {
      await this.tenants.ensure(tenant, manager);
      const row = await manager.save(
        manager.create(ApiToken, {
          tenant,
          subject,
          permissions: [...new Set(permissions)] as Permission[],
          plannerFamilies: [...new Set(plannerFamilies)],
          tokenSha256: sha256Hex(token),
          revokedAt: null,
        }),
      );
      await this.audit.record(
        {
          tenant,
          type: 'token.created',
          actor,
          details: {
            token_id: row.id,
            subject,
            permissions: row.permissions,
            ...(row.plannerFamilies.length > 0 ? { planner_families: row.plannerFamilies } : {}),
          },
        },
        manager,
      );
      return row;
    });
    return { info: toInfo(saved), token };
  }

  async list(tenant?: string): Promise<TokenInfo[]> {
    const rows = await this.dataSource.getRepository(ApiToken).find({
      where: tenant ? { tenant } : {},
      order: { createdAt: 'ASC' },
    });
    return rows.map(toInfo);
  }

  async revoke(id: string, actor: string): Promise<TokenInfo> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound(`no token ${id}`);
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(ApiToken);
      const result = await repo.update({ id, revokedAt: IsNull() }, { revokedAt: new Date() });
      const row = await repo.findOneBy({ id });
      if (!row) throw notFound(`no token ${id}`);
      if (result.affected) {
        await this.audit.record(
          {
            tenant: row.tenant,
            type: 'token.revoked',
            actor,
            details: { token_id: id, subject: row.subject },
          },
          manager,
        );
      }
      return toInfo(row);
    });
  }

  /** The caller a token stands for, or null when it is unknown or revoked. */
  async authenticate(token: string): Promise<Caller | null> {
    const row = await this.dataSource
      .getRepository(ApiToken)
      .findOneBy({ tokenSha256: sha256Hex(token), revokedAt: IsNull() });
    if (!row) return null;
    return {
      tokenId: row.id,
      tenant: row.tenant,
      subject: row.subject,
      permissions: new Set(row.permissions),
      issuer: null,
      groups: new Set(),
      plannerFamilies: new Set(row.plannerFamilies ?? []),
    };
  }
}

function toInfo(row: ApiToken): TokenInfo {
  return {
    id: row.id,
    tenant: row.tenant,
    subject: row.subject,
    permissions: row.permissions,
    planner_families: row.plannerFamilies ?? [],
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt ? row.revokedAt.toISOString() : null,
  };
}
