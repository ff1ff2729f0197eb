import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { updatedRows } from '../sql/sql';
import { SecretGrant } from './secret-grant.entity';

export interface GrantKey {
  tenant: string;
  envName: string;
  origin: string;
}

/** The SQL of secret grants: one live grant per tenant, variable and origin. */
@Injectable()
export class SecretGrantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Whether the grant is live now (read in `manager`'s transaction when given). */
  async isGranted(key: GrantKey, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource).query(
      `SELECT 1 FROM secret_grants
        WHERE tenant = $1 AND env_name = $2 AND origin = $3 AND revoked_at IS NULL`,
      [key.tenant, key.envName, key.origin],
    );
    return rows.length > 0;
  }

  /** The live grant, or a new one; `created` says which. */
  async grant(
    manager: EntityManager,
    key: GrantKey,
    grantedBy: string,
  ): Promise<{ grant: SecretGrant; created: boolean }> {
    const repo = manager.getRepository(SecretGrant);
    const live = await repo.findOneBy({ ...key, revokedAt: IsNull() });
    if (live) return { grant: live, created: false };
    const grant = await repo.save(
      repo.create({ ...key, grantedBy, revokedBy: null, revokedAt: null }),
    );
    return { grant, created: true };
  }

  /** Revokes the live grant; null when there is none. */
  async revoke(
    manager: EntityManager,
    key: GrantKey,
    revokedBy: string,
  ): Promise<SecretGrant | null> {
    const rows = updatedRows<{ id: string }>(
      await manager.query(
        `UPDATE secret_grants SET revoked_at = now(), revoked_by = $4
        WHERE tenant = $1 AND env_name = $2 AND origin = $3 AND revoked_at IS NULL
        RETURNING id`,
        [key.tenant, key.envName, key.origin, revokedBy],
      ),
    );
    return rows[0] ? manager.getRepository(SecretGrant).findOneBy({ id: rows[0].id }) : null;
  }

  /** Live grants, of one tenant or of all, oldest first. */
  list(tenant?: string): Promise<SecretGrant[]> {
    return this.dataSource.getRepository(SecretGrant).find({
      where: { ...(tenant ? { tenant } : {}), revokedAt: IsNull() },
      order: { tenant: 'ASC', grantedAt: 'ASC' },
    });
  }
}

/**
 * The grant check as SQL for the statement that marks an action `sending` (the step's secret,
 * given as parameters, still granted for the destination the step uses), over `runs r`.
 */
export function grantedSql(envParam: string, originParam: string): string {
  return `EXISTS (SELECT 1 FROM secret_grants g
                   WHERE g.tenant = r.tenant AND g.env_name = ${envParam}
                     AND g.origin = ${originParam} AND g.revoked_at IS NULL)`;
}
