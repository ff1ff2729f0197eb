import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { TenantsService } from '../../tenants/tenants.service';
import { parsePlannerId, PLANNER_FAMILY, RESERVED_FAMILIES } from '../../config/planner-id';
import { type RemoteFamily, RemoteFamiliesRepository } from './remote-families.repository';

/** A tag or a program: lower-case words joined by hyphens (as the catalog's access has them). */
const ACCESS_NAME = /^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*$/;

/** The audit event of a remote family registered, changed or removed (docs/security.md). */
export const REMOTE_CHANGED = 'planner.remote_changed';

/** The families the deployment itself has: a remote family never takes their names. */
const RESERVED = new Set<string>(RESERVED_FAMILIES);
const MAX_NOTE = 500;

export interface RemoteFamilyView {
  id: string;
  family: string;
  version: string;
  effort: string;
  deadline_seconds: number;
  pixels: boolean;
  tags: string[];
  programs: string[];
  note: string | null;
  set_by: string;
  set_at: string;
}

export function familyView(f: RemoteFamily): RemoteFamilyView {
  return {
    id: `${f.family}-${f.version}-${f.effort}`,
    family: f.family,
    version: f.version,
    effort: f.effort,
    deadline_seconds: f.deadlineSeconds,
    pixels: f.pixels,
    tags: f.tags,
    programs: f.programs,
    note: f.note,
    set_by: f.setBy,
    set_at: f.setAt.toISOString(),
  };
}

export interface RemoteFamilyChange {
  family?: string;
  version?: string;
  effort?: string;
  deadline?: string;
  pixels?: string;
  /** Comma-separated tag and program names. */
  tags?: string;
  programs?: string;
  note?: string;
}

/**
 * The remote planner families of the deployment (docs/models.md), as the deployment operator registers
 * them with the CLI: a family, its version and effort (its catalog id `<family>-<version>-<effort>`),
 * the deadline of a step's decision, whether its workers get the screenshot. Not public: who may use
 * one is the catalog's rule (allow, tags, programs). Every change is audited
 * `planner.remote_changed` in every tenant's chain, as every tenant's catalog shows it.
 */
@Injectable()
export class RemoteFamilies {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly families: RemoteFamiliesRepository,
    private readonly tenants: TenantsService,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<RemoteFamilyView[]> {
    return (await this.families.all()).map(familyView);
  }

  async add(
    change: RemoteFamilyChange,
    actor: string,
  ): Promise<{ family: RemoteFamilyView; created: boolean }> {
    const family = checked(change);
    return this.dataSource.transaction(async (manager) => {
      const saved = await this.families.upsert(manager, { ...family, setBy: actor });
      const view = familyView(saved.family);
      for (const tenant of await this.tenants.ids(manager)) {
        await this.audit.record(
          {
            tenant,
            type: REMOTE_CHANGED,
            actor,
            details: { change: saved.created ? 'added' : 'changed', ...view },
          },
          manager,
        );
      }
      return { family: view, created: saved.created };
    });
  }

  async remove(family: string, actor: string): Promise<RemoteFamilyView | null> {
    return this.dataSource.transaction(async (manager) => {
      const removed = await this.families.delete(manager, family);
      if (!removed) return null;
      const view = familyView(removed);
      for (const tenant of await this.tenants.ids(manager)) {
        await this.audit.record(
          { tenant, type: REMOTE_CHANGED, actor, details: { change: 'removed', ...view } },
          manager,
        );
      }
      return view;
    });
  }
}

/** The operator's flags, checked: an Error names the flag. */
function checked(change: RemoteFamilyChange): Omit<RemoteFamily, 'setBy' | 'setAt'> {
  const family = change.family ?? '';
  if (!PLANNER_FAMILY.test(family) || family.length > 60) {
    throw new Error('--family must be lower-case words joined by hyphens (at most 60 characters)');
  }
  if (RESERVED.has(family)) throw new Error(`--family ${family} is the deployment's own`);
  const version = change.version ?? '1';
  const effort = change.effort ?? 'normal';
  const parts = parsePlannerId(`${family}-${version}-${effort}`);
  if (!parts || parts.kind !== 'versioned' || parts.family !== family) {
    throw new Error('--version must be dotted numbers or a date (2026-11-10), --effort one word');
  }
  const deadline = Number(change.deadline ?? '');
  if (!Number.isInteger(deadline) || deadline < 1 || deadline > 3600) {
    throw new Error('--deadline must be the seconds a step waits for a decision, 1 to 3600');
  }
  if (change.pixels !== 'yes' && change.pixels !== 'no') {
    throw new Error('--pixels must be yes (its workers get the screenshot) or no');
  }
  if (change.note !== undefined && (change.note.trim() === '' || change.note.length > MAX_NOTE)) {
    throw new Error(`--note must be 1 to ${MAX_NOTE} characters`);
  }
  const names = (flag: string, raw: string | undefined) => {
    const list = [
      ...new Set(
        (raw ?? '')
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ];
    const bad = list.find((t) => !ACCESS_NAME.test(t) || t.length > 60);
    if (bad !== undefined)
      throw new Error(`--${flag}: ${bad} is not lower-case words joined by hyphens`);
    return list;
  };
  return {
    family,
    tags: names('tags', change.tags),
    programs: names('programs', change.programs),
    version: parts.version,
    effort: parts.effort,
    deadlineSeconds: deadline,
    pixels: change.pixels === 'yes',
    note: change.note ?? null,
  };
}
