import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import { ComputerUseConfigVersion } from './computer-use-config.entity';
import { KillSwitch } from './kill-switch.entity';

export interface KillSwitchState {
  engaged: boolean;
  reason: string | null;
}

/**
 * The computer-use config versions and kill switches of each tenant. Changes to one tenant's are
 * serialised by a transaction-scoped advisory lock (`lockTenant`).
 */
@Injectable()
export class SettingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Serialises the tenant's config and kill-switch changes until the transaction ends. */
  async lockTenant(manager: EntityManager, tenant: string): Promise<void> {
    await manager.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('computer_use_config:' || $1, 0))`,
      [tenant],
    );
  }

  /** The config version in force (the newest), or null before the first PUT. */
  head(
    tenant: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ComputerUseConfigVersion | null> {
    return manager.getRepository(ComputerUseConfigVersion).findOne({
      where: { tenant },
      order: { version: 'DESC' },
    });
  }

  /** An insert, never an upsert: the primary key refuses a second row of the same version. */
  async insertVersion(manager: EntityManager, row: Partial<ComputerUseConfigVersion>) {
    const version = manager.create(ComputerUseConfigVersion, row);
    await manager.getRepository(ComputerUseConfigVersion).insert(version);
    return version;
  }

  /** Versions, newest first, below `before` (a version number) when given. */
  versions(tenant: string, limit: number, before?: number): Promise<ComputerUseConfigVersion[]> {
    return this.dataSource.getRepository(ComputerUseConfigVersion).find({
      where: before === undefined ? { tenant } : { tenant, version: LessThan(before) },
      order: { version: 'DESC' },
      take: limit,
    });
  }

  /** The agent's kill switch, read before every step and every send: one plain statement. */
  async killSwitch(tenant: string, agent: string): Promise<KillSwitchState | null> {
    const rows: KillSwitchState[] = await this.dataSource.query(
      `SELECT engaged, reason FROM computer_use_kill_switches WHERE tenant = $1 AND agent = $2`,
      [tenant, agent],
    );
    return rows.length > 0 ? { engaged: rows[0].engaged, reason: rows[0].reason } : null;
  }

  killSwitchRow(
    tenant: string,
    agent: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<KillSwitch | null> {
    return manager.getRepository(KillSwitch).findOneBy({ tenant, agent });
  }

  saveKillSwitch(manager: EntityManager, row: Partial<KillSwitch>): Promise<KillSwitch> {
    const repo = manager.getRepository(KillSwitch);
    return repo.save(repo.create(row));
  }
}
