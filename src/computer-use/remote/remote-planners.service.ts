import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { StepQueue } from '../../queue/step-queue';
import { parsePlannerId } from '../../config/planner-id';
import type { Planner } from '../planner-contract/planner';
import { ScreensService } from '../screens/screens.service';
import { type RemoteFamily, RemoteFamiliesRepository } from './remote-families.repository';
import { type NewWork, PlannerWorkRepository, type WorkRow } from './planner-work.repository';
import { RemotePlanner, type RemoteWorkPort } from './remote-planner';
import { busyMessage, MAX_WAITING_STEPS } from './work-decisions';
import { MCP_FAMILY, MCP_PLANNER_ID, mcpWorkPort } from './mcp-family';

/** A remote family's catalog id: `<family>-<version>-<effort>`. */
export function remoteId(f: Pick<RemoteFamily, 'family' | 'version' | 'effort'>): string {
  return `${f.family}-${f.version}-${f.effort}`;
}

/**
 * The remote planners of the deployment (docs/models.md): which ids name one, the planner the engine
 * asks for a step, and whether a tenant's workers of a family are serving.
 */
@Injectable()
export class RemotePlanners implements RemoteWorkPort {
  constructor(
    private readonly config: AppConfig,
    private readonly families: RemoteFamiliesRepository,
    private readonly work: PlannerWorkRepository,
    private readonly queue: StepQueue,
    private readonly screens: ScreensService,
  ) {}

  get heartbeatSeconds(): number {
    return this.config.PLANNER_HEARTBEAT_SECONDS;
  }

  /** Every registered family. */
  all(): Promise<RemoteFamily[]> {
    return this.families.all();
  }

  /**
   * The registered family an id names exactly (`<family>-<version>-<effort>`), or null; the `mcp`
   * planner's own for its id.
   */
  async familyOf(ref: unknown): Promise<RemoteFamily | null> {
    const parts = parsePlannerId(ref);
    if (parts?.kind !== 'versioned') return null;
    if (parts.id === MCP_PLANNER_ID) return MCP_FAMILY;
    const family = await this.families.find(parts.family);
    return family && remoteId(family) === parts.id ? family : null;
  }

  /** The planner for an agent's `planner`, when it names a remote family; else null. */
  async plannerFor(ref: unknown): Promise<Planner | null> {
    const family = await this.familyOf(ref);
    if (!family) return null;
    const port = family === MCP_FAMILY ? mcpWorkPort(this) : this;
    return new RemotePlanner(remoteId(family), family, port);
  }

  /** The families a worker of the tenant asked for within the heartbeat. */
  serving(tenant: string): Promise<Set<string>> {
    return this.families.serving(tenant, this.heartbeatSeconds);
  }

  /**
   * Why a run of an agent with this `planner` cannot start now: it is a remote planner and the
   * tenant has MAX_WAITING_STEPS steps waiting for remote planners already. Null otherwise.
   */
  async busyReason(tenant: string, ref: unknown): Promise<string | null> {
    if (!(await this.familyOf(ref))) return null;
    return (await this.work.openCount(tenant)) >= MAX_WAITING_STEPS ? busyMessage(tenant) : null;
  }

  // ---------------------------------------------------------------- RemoteWorkPort

  ofStep(runId: string, step: number): Promise<WorkRow | null> {
    return this.work.ofStep(runId, step);
  }

  publish(work: NewWork, maxOpen: number): Promise<WorkRow | 'busy'> {
    return this.work.publish(work, maxOpen);
  }

  close(id: string, status: 'timed_out' | 'offline'): Promise<boolean> {
    return this.work.close(id, status);
  }

  async lastSeen(
    tenant: string,
    family: string,
    claimer?: { worker: string; tokenId: string } | null,
  ): Promise<Date | null> {
    return this.families.lastSeen(tenant, family, claimer ?? undefined);
  }

  async lookAgain(work: WorkRow, at: Date): Promise<void> {
    await this.work.setNextCheck(work.id, at);
    await this.queue.stepLater(work.runId, work.step, `remote.${work.id}.${at.getTime()}`, at);
  }

  png(tenant: string, sha256: string): Promise<Buffer | null> {
    return this.screens.get(tenant, sha256);
  }
}
