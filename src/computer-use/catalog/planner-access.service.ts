import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { TenantsService } from '../../tenants/tenants.service';
import { parsePlannerTarget } from '../../config/planner-id';
import {
  type AccessKind,
  type AccessRow,
  PlannerAccessRepository,
} from './planner-access.repository';

/** A tag or a program: lower-case words joined by hyphens. */
export const ACCESS_NAME = /^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*$/;
const MAX_NOTE = 500;
const MAX_SUBJECT = 255;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The audit event of every change (docs/security.md). */
export const ACCESS_CHANGED = 'planner.access_changed';

/** A row as `planners list` prints it and the audit details carry it. */
export interface AccessView {
  id: string;
  kind: AccessKind;
  tenant: string;
  subject: string | null;
  planner: string | null;
  name: string | null;
  note: string | null;
  set_by: string;
  set_at: string;
}

export function accessView(row: AccessRow): AccessView {
  return {
    id: row.id,
    kind: row.kind,
    tenant: row.tenant,
    subject: row.subject,
    planner: row.planner,
    name: row.name,
    note: row.note,
    set_by: row.setBy,
    set_at: row.setAt.toISOString(),
  };
}

/** What the operator asks for: an allow/deny (`planner`), a tag (`subject`, `name`) or a program. */
export interface AccessChange {
  kind: AccessKind;
  tenant: string;
  subject?: string;
  planner?: string;
  name?: string;
  note?: string;
}

/**
 * Who may use which planner, as the deployment operator sets it (docs/models.md "Planners as a
 * catalog"): only through the CLI, never through the API, so a tenant admin cannot widen their own
 * access. Every change is audited `planner.access_changed` in the tenant's chain.
 */
@Injectable()
export class PlannerAccess {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rows: PlannerAccessRepository,
    private readonly tenants: TenantsService,
    private readonly audit: AuditService,
  ) {}

  /** Adds the row; `created` false when the same one was there already (kept as it was). */
  async set(change: AccessChange, actor: string): Promise<{ row: AccessView; created: boolean }> {
    const key = checkedKey(change);
    if (change.note !== undefined && (change.note.trim() === '' || change.note.length > MAX_NOTE)) {
      throw new Error(`--note must be 1 to ${MAX_NOTE} characters`);
    }
    return this.dataSource.transaction(async (manager) => {
      await this.tenants.ensure(key.tenant, manager);
      const inserted = await this.rows.insert(manager, {
        ...key,
        note: change.note ?? null,
        setBy: actor,
      });
      if (!inserted) {
        const existing = await this.rows.find(manager, key);
        return { row: accessView(existing!), created: false };
      }
      await this.audit.record(
        {
          tenant: key.tenant,
          type: ACCESS_CHANGED,
          actor,
          details: { change: 'set', ...details(inserted) },
        },
        manager,
      );
      return { row: accessView(inserted), created: true };
    });
  }

  /** Removes a row by its id (`planners list` shows them); null when there is none. */
  async remove(id: string, actor: string): Promise<AccessView | null> {
    if (!UUID.test(id))
      throw new Error(`${JSON.stringify(id)} is not the id of a row of planners list`);
    return this.dataSource.transaction(async (manager) => {
      const removed = await this.rows.delete(manager, id.toLowerCase());
      if (!removed) return null;
      await this.audit.record(
        {
          tenant: removed.tenant,
          type: ACCESS_CHANGED,
          actor,
          details: { change: 'removed', ...details(removed) },
        },
        manager,
      );
      return accessView(removed);
    });
  }

  /** Removes the tag of the subject; null when it has no such tag. */
  async untag(
    change: { tenant: string; subject?: string; name?: string },
    actor: string,
  ): Promise<AccessView | null> {
    const key = checkedKey({ ...change, kind: 'tag' });
    const row = await this.rows.find(this.dataSource.manager, key);
    return row ? this.remove(row.id, actor) : null;
  }

  async list(tenant?: string): Promise<AccessView[]> {
    return (await this.rows.list(tenant)).map(accessView);
  }
}

function details(row: AccessRow): Record<string, unknown> {
  return {
    id: row.id,
    kind: row.kind,
    ...(row.subject !== null ? { subject: row.subject } : {}),
    ...(row.planner !== null ? { planner: row.planner } : {}),
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.note !== null ? { note: row.note } : {}),
  };
}

/** The row's key, checked and normalised; throws an Error that names the option at fault. */
function checkedKey(change: AccessChange): {
  kind: AccessKind;
  tenant: string;
  subject: string | null;
  planner: string | null;
  name: string | null;
} {
  const subject = change.subject ?? null;
  if (subject !== null && (subject.trim() === '' || subject.length > MAX_SUBJECT)) {
    throw new Error(`--subject must be 1 to ${MAX_SUBJECT} characters`);
  }
  if (change.kind === 'allow' || change.kind === 'deny') {
    if (change.name !== undefined)
      throw new Error(`planners ${change.kind} takes no --tag or --program`);
    const target = change.planner === undefined ? null : parsePlannerTarget(change.planner);
    if (!target) {
      throw new Error(
        `planners ${change.kind} needs --planner with a planner id (anthropic-claude-sonnet-4.6-normal, scripted-<uuid>) or a family (anthropic-claude-sonnet, navigator, scripted)${change.planner === undefined ? '' : `, not ${JSON.stringify(change.planner)}`}`,
      );
    }
    return {
      kind: change.kind,
      tenant: change.tenant,
      subject,
      planner: 'id' in target ? target.id : target.family,
      name: null,
    };
  }
  const option = change.kind === 'tag' ? '--tag' : '--program';
  if (change.planner !== undefined) throw new Error(`planners ${change.kind} takes no --planner`);
  if (change.name === undefined || !ACCESS_NAME.test(change.name) || change.name.length > 63) {
    throw new Error(
      `${option} must be lower-case words joined by hyphens (researcher, seed-research)${change.name === undefined ? '' : `, not ${JSON.stringify(change.name)}`}`,
    );
  }
  if (change.kind === 'tag' && subject === null) throw new Error('a tag needs --subject');
  if (change.kind === 'program' && subject !== null) {
    throw new Error('a program belongs to a tenant: it takes no --subject');
  }
  return { kind: change.kind, tenant: change.tenant, subject, planner: null, name: change.name };
}
