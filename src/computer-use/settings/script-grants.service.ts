import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import { forbidden, invalid } from '../../common/domain-error';
import { withDefaults } from './agent-config';
import { grantChanges, regranted } from './script-grants';
import { SettingsRepository } from './settings.repository';
import { changeReasonMissing, type Weakening, weakeningRefusal, weakenings } from './weakening';
import { auditWeakenings } from './weakening-audit';

/** A script of the tenant replaced or deleted (docs/security.md "Weakening"). */
export interface ScriptChange {
  /** Its API id, `scripted-<uuid>`, for the audit. */
  plannerId: string;
  /** Its row id. */
  uuid: string;
  /** Its content as stored now; null: deleted. */
  content: unknown;
  /** Why, in the caller's words: required when the change weakens an agent. */
  reason?: string | null;
}

/**
 * The grant of a script's content to the agents whose writes need no approval (script-grants.ts),
 * when the script changes: replacing or deleting a script such an agent names is that agent's
 * `planner` weakening, decided by the weakening table, and the grant it makes is a new config
 * version (the send gate reads the version in force).
 */
@Injectable()
export class ScriptGrantsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Serialises the change with the tenant's config changes and sends (the same lock): taken first
   * in the transaction that changes a script, before the script's row.
   */
  lock(manager: EntityManager, tenant: string): Promise<void> {
    return this.settings.lockTenant(manager, tenant);
  }

  /**
   * In the transaction that changed the script, after `lock`: each agent of the config in force
   * bound to it is weakened unless its content is the one granted. Without governance.weaken that
   * is a 403, without a reason a 400 (the transaction then rolls the script back); otherwise a new
   * config version grants the new content (or nothing, for a deleted script), audited
   * `computer_use.config` and `governance.weaken` with the old and new hashes. Answers the
   * weakenings; [] when no such agent names the script.
   */
  async scriptChanged(
    manager: EntityManager,
    caller: Caller,
    change: ScriptChange,
  ): Promise<Weakening[]> {
    const head = await this.settings.head(caller.tenant, manager);
    if (!head) return [];
    const config = withDefaults(head.config);
    const before = head.scriptGrants ?? {};
    const after = regranted(config, before, change.uuid, change.content);
    const weakened = weakenings(config, config, { before, after });
    if (weakened.length === 0) return [];
    if (!caller.permissions.has('governance.weaken')) {
      throw forbidden(weakeningRefusal(weakened));
    }
    const unexplained = changeReasonMissing(weakened, change.reason);
    if (unexplained) throw invalid(unexplained);
    const reason = change.reason!.trim();
    const row = await this.settings.insertVersion(manager, {
      tenant: caller.tenant,
      version: head.version + 1,
      config: head.config,
      scriptGrants: after,
      createdBy: caller.subject,
    });
    await this.audit.record(
      {
        tenant: caller.tenant,
        type: 'computer_use.config',
        actor: caller.subject,
        details: {
          version: row.version,
          previous_version: head.version,
          token_id: caller.tokenId,
          agents_added: [],
          agents_removed: [],
          agents_changed: [],
          changes: grantChanges(before, after),
          planner_id: change.plannerId,
          reason,
        },
      },
      manager,
    );
    await auditWeakenings(this.audit, manager, caller, weakened, {
      version: row.version,
      reason: () => reason,
      planner_id: change.plannerId,
    });
    return weakened;
  }
}
