import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Permission } from '../permission';
import type { AccessMapping } from './access-mapping';

/** The SQL of the group mapping: one row per tenant and group. */
@Injectable()
export class AccessRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async mapping(tenant: string, manager?: EntityManager): Promise<AccessMapping> {
    const rows: Array<{ group_name: string; permissions: Permission[] }> = await (
      manager ?? this.dataSource
    ).query(
      `SELECT group_name, permissions FROM access_groups WHERE tenant = $1 ORDER BY group_name`,
      [tenant],
    );
    return Object.fromEntries(rows.map((r) => [r.group_name, r.permissions]));
  }

  /** Locks the tenant's mapping for a replace: two admins' PUTs apply one after the other. */
  async lock(manager: EntityManager, tenant: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('access:' || $1, 0))`, [
      tenant,
    ]);
  }

  async replace(manager: EntityManager, tenant: string, mapping: AccessMapping): Promise<void> {
    await manager.query(`DELETE FROM access_groups WHERE tenant = $1`, [tenant]);
    const names = Object.keys(mapping);
    if (names.length === 0) return;
    await manager.query(
      `INSERT INTO access_groups (tenant, group_name, permissions)
       SELECT $1, g.name, ARRAY(SELECT jsonb_array_elements_text(g.perms))
         FROM jsonb_each($2::jsonb) AS g(name, perms)`,
      [tenant, JSON.stringify(mapping)],
    );
  }
}
