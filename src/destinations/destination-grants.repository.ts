import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { updatedRows } from '../sql/sql';
import type { LiveGrant } from './destination-decision';
import { DestinationGrant } from './destination-grant.entity';

/** A live grant as `destinations list` shows it: a destination grant, or a secret grant's origin. */
export interface LiveGrantRow extends LiveGrant {
  tenant: string;
  note: string | null;
  grantedBy: string;
  grantedAt: Date;
}

/**
 * The SQL of destination grants: one live grant per tenant and origin. What grants an origin is
 * read here from both grant tables, since a secret grant grants its origin too (only the origins
 * of secret_grants are read; secret-grants.repository.ts owns that table).
 */
@Injectable()
export class DestinationGrantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The tenant's live grants of both kinds, now. */
  async live(tenant: string): Promise<LiveGrant[]> {
    return (await this.liveRows(tenant)).map(({ origin, env }) => ({ origin, env }));
  }

  /** Live grants of both kinds, of one tenant or of all, by tenant and age. */
  async liveRows(tenant?: string): Promise<LiveGrantRow[]> {
    const rows: Array<{
      tenant: string;
      origin: string;
      env: string | null;
      note: string | null;
      granted_by: string;
      granted_at: Date;
    }> = await this.dataSource.query(
      `SELECT tenant, origin, NULL AS env, note, granted_by, granted_at
         FROM destination_grants WHERE ($1::text IS NULL OR tenant = $1) AND revoked_at IS NULL
       UNION ALL
       SELECT tenant, origin, env_name, NULL, granted_by, granted_at
         FROM secret_grants WHERE ($1::text IS NULL OR tenant = $1) AND revoked_at IS NULL
       ORDER BY tenant, granted_at`,
      [tenant ?? null],
    );
    return rows.map((r) => ({
      tenant: r.tenant,
      origin: r.origin,
      env: r.env,
      note: r.note,
      grantedBy: r.granted_by,
      grantedAt: new Date(r.granted_at),
    }));
  }

  /** The live grant, or a new one; `created` says which. */
  async grant(
    manager: EntityManager,
    key: { tenant: string; origin: string },
    note: string | null,
    grantedBy: string,
  ): Promise<{ grant: DestinationGrant; created: boolean }> {
    const repo = manager.getRepository(DestinationGrant);
    const live = await repo.findOneBy({ ...key, revokedAt: IsNull() });
    if (live) return { grant: live, created: false };
    const grant = await repo.save(
      repo.create({ ...key, note, grantedBy, revokedBy: null, revokedAt: null }),
    );
    return { grant, created: true };
  }

  /** Revokes the live destination grant; null when there is none. */
  async revoke(
    manager: EntityManager,
    key: { tenant: string; origin: string },
    revokedBy: string,
  ): Promise<DestinationGrant | null> {
    const rows = updatedRows<{ id: string }>(
      await manager.query(
        `UPDATE destination_grants SET revoked_at = now(), revoked_by = $3
          WHERE tenant = $1 AND origin = $2 AND revoked_at IS NULL
          RETURNING id`,
        [key.tenant, key.origin, revokedBy],
      ),
    );
    return rows[0] ? manager.getRepository(DestinationGrant).findOneBy({ id: rows[0].id }) : null;
  }
}
