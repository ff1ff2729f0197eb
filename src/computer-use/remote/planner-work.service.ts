import { Injectable } from '@nestjs/common';
import type { Caller } from '../../auth/caller';
import { conflict, DomainError, invalid, notFound } from '../../common/domain-error';
import { StepQueue } from '../../queue/step-queue';
import { checkShape, maskCardNumbersIn } from '../actions';
import { PLANNER_FAMILY } from '../../config/planner-id';
import { RemoteFamiliesRepository } from './remote-families.repository';
import { PlannerWorkRepository, type WorkRow } from './planner-work.repository';
import { isWorkerErrorCode } from './work-decisions';

/**
 * A decision refused for its shape as it is kept and judged again by the engine: its card numbers
 * masked in the parsed value (masked in the JSON text, a number would be no JSON). A mask can mend
 * the shape (a card number given as `text`, a number, is masked into text), so what is kept then
 * also says why it was refused, in a field no action has: the engine refuses it again, never acts.
 */
function refusedAsKept(decision: unknown, reason: string): unknown {
  const masked = maskCardNumbersIn(decision ?? null);
  if (!checkShape(masked).ok) return masked;
  return { ...(masked as Record<string, unknown>), refused: `decision: ${reason}` };
}

/** A decision's JSON at most (an action is a few hundred bytes). */
const MAX_DECISION_CHARS = 16_384;
const MAX_LISTED = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface WorkView {
  id: string;
  planner: string;
  family: string;
  run_id: string;
  step: number;
  status: string;
  worker: string | null;
  created_at: string;
  deadline_at: string;
}

function view(row: WorkRow): WorkView {
  return {
    id: row.id,
    planner: row.planner,
    family: row.family,
    run_id: row.runId,
    step: row.step,
    status: row.status,
    worker: row.worker,
    created_at: row.createdAt.toISOString(),
    deadline_at: row.deadlineAt.toISOString(),
  };
}

/**
 * The worker API of remote planners (docs/models.md): a worker with a token holding `planners.serve`
 * for its families asks for waiting work (its heartbeat), claims one step (one winner), and
 * answers it once. Everything is of the token's tenant and families: other work is a 404.
 */
@Injectable()
export class PlannerWork {
  constructor(
    private readonly work: PlannerWorkRepository,
    private readonly families: RemoteFamiliesRepository,
    private readonly queue: StepQueue,
  ) {}

  /** The tenant's waiting work of these families, oldest first; asking is the worker's heartbeat. */
  async list(
    caller: Caller,
    familiesParam: string,
    worker: string,
  ): Promise<{ items: WorkView[]; next_cursor: null }> {
    const families = this.servedFamilies(caller, familiesParam);
    await this.families.heartbeat(caller.tenant, families, worker, caller.tokenId);
    const rows = await this.work.waiting(caller.tenant, families, MAX_LISTED);
    return { items: rows.map(view), next_cursor: null };
  }

  /** Claims a waiting step: of concurrent claims one wins (with the input), the rest get 409. */
  async claim(caller: Caller, id: string, worker: string): Promise<WorkView & { input: unknown }> {
    const families = [...(caller.plannerFamilies ?? [])];
    if (!UUID.test(id)) throw notFound(`no planner work ${id.slice(0, 40)}`);
    await this.families.heartbeat(caller.tenant, families, worker, caller.tokenId);
    const row = await this.work.claim(caller.tenant, families, id, worker, caller.tokenId);
    if (row) return { ...view(row), input: row.input };
    const found = await this.visible(caller, id);
    throw conflict(
      found.status === 'waiting'
        ? `planner work ${id} is past its deadline or its run has ended`
        : `planner work ${id} is ${found.status}${found.worker ? ` by ${found.worker}` : ''}: another claim won`,
    );
  }

  /**
   * The claimer's answer, once. A malformed decision is kept as the step's answer (the engine
   * refuses it as an invalid action, which counts toward the three) and refused here with 400
   * naming the field. An error answer keeps only its kind (a short code) or its length.
   */
  async answer(
    caller: Caller,
    id: string,
    body: { worker: string; decision?: unknown; error?: string },
  ): Promise<WorkView> {
    if (!UUID.test(id)) throw notFound(`no planner work ${id.slice(0, 40)}`);
    if (body.decision !== undefined && body.error !== undefined) {
      throw invalid('send either decision or error, not both');
    }
    let problem: string | null = null;
    let answer: { decision: unknown } | { errorKind: string | null; errorLength: number };
    if (body.error !== undefined) {
      const kind = isWorkerErrorCode(body.error) ? body.error : null;
      answer = { errorKind: kind, errorLength: [...body.error].length };
    } else {
      const raw = JSON.stringify(body.decision ?? null);
      if (raw.length > MAX_DECISION_CHARS) {
        throw invalid(`decision is too long (at most ${MAX_DECISION_CHARS} characters of JSON)`);
      }
      const shape = checkShape(body.decision);
      if (!shape.ok) problem = `decision: ${shape.reason}`;
      answer = { decision: shape.ok ? body.decision : refusedAsKept(body.decision, shape.reason) };
    }
    const row = await this.work.answer(caller.tenant, id, body.worker, caller.tokenId, answer);
    if (!row) {
      const found = await this.visible(caller, id);
      throw conflict(
        found.status === 'claimed' && found.worker !== body.worker
          ? `planner work ${id} is claimed by another worker`
          : found.status === 'claimed'
            ? `planner work ${id} is past its deadline or its run has ended`
            : `planner work ${id} is ${found.status}: it was answered once already, or never claimed`,
      );
    }
    await this.queue.stepLater(row.runId, row.step, `remote.${row.id}.answer`);
    if (problem) throw invalid(problem);
    return view(row);
  }

  /** The work, when the caller's tenant and families may see it; else 404. */
  private async visible(caller: Caller, id: string): Promise<WorkRow> {
    const row = await this.work.get(caller.tenant, id);
    if (!row || !caller.plannerFamilies?.has(row.family)) {
      throw notFound(`no planner work ${id}`);
    }
    return row;
  }

  private servedFamilies(caller: Caller, param: string): string[] {
    const asked = [
      ...new Set(
        param
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean),
      ),
    ];
    if (asked.length === 0) throw invalid('families is empty: name the families to ask for');
    const bad = asked.find((f) => !PLANNER_FAMILY.test(f) || f.length > 100);
    if (bad !== undefined) {
      throw invalid(`families: ${JSON.stringify(bad.slice(0, 100))} is not a planner family`);
    }
    const notServed = asked.filter((f) => !caller.plannerFamilies?.has(f));
    if (notServed.length > 0) {
      throw new DomainError(
        'forbidden',
        `this token does not serve ${notServed.join(', ')}: planners.serve is scoped to ${[...(caller.plannerFamilies ?? [])].join(', ') || 'no family'}`,
        'planner_family_not_served',
      );
    }
    return asked;
  }
}
