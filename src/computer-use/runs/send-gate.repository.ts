import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { setClauses } from '../../sql/sql';
import { SettingsRepository } from '../settings/settings.repository';
import { gateSql, type GateRow, type SendGate, type SentSecret, toGate } from './send-gate';
import { assertStepMove as assertMove, type StepPhase } from './step-phase';
import { type Loosening, Step } from './step.entity';
import type { StepFields } from './steps.repository';

/** Where markSending's statement holds what the send gate reads. */
const GATE_PARAMS = {
  step: '$1',
  run: '$3',
  env: '$4',
  origin: '$5',
  loosening: '$6',
  planned: '$7',
} as const;

/**
 * The send gate's statements on the steps table: a step moves to `sending` only in the statement
 * that reads everything that may forbid the send (send-gate.ts), in one transaction after the
 * tenant's governance lock, so nothing changes between the check and the mark; a step already
 * `sending` is checked the same way before it is sent again. The rest of a step's moves are
 * StepsRepository's, with the same lock order: the run's row before the step's.
 */
@Injectable()
export class SendGateRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: SettingsRepository,
  ) {}

  /**
   * Marks the step `sending` (with its decision, when `fields` are given, recorded either way),
   * only if everything that may forbid the send allows it, read in the same transaction, after the
   * tenant's governance lock (shared), so that no config, kill-switch or pause change commits
   * between the check and the mark. The planner's state is kept with a decision that is sent.
   */
  async markSending(
    step: Step,
    from: StepPhase,
    options: {
      fields?: StepFields;
      plannerState?: string;
      approved: boolean;
      /** A write sent without approval: only while the agent's config in force lets it. */
      unapprovedWrite: boolean;
      /** That write is a staged edit: it may go while the agent's config in force stages typing. */
      staged?: boolean;
      /**
       * The weakening that made the action a read (`Step.loosenedBy`): it may go unapproved only
       * while the agent's config in force holds it as it was.
       */
      loosening?: Loosening | null;
      secret: SentSecret;
    },
  ): Promise<{ moved: boolean; gate: SendGate | null }> {
    assertMove(from, 'sending');
    const params: unknown[] = [
      step.id,
      from,
      step.runId,
      options.secret.envName,
      options.secret.origin,
      options.loosening ? JSON.stringify(options.loosening) : null,
      // The script that planned the decision being recorded (or the one recorded before).
      options.fields?.plannerSha256 !== undefined
        ? options.fields.plannerSha256
        : step.plannerSha256,
    ];
    const sets = setClauses(this.dataSource, Step, options.fields ?? {}, params);
    sets.push(`phase = CASE WHEN (SELECT ok FROM open) THEN 'sending' ELSE phase END`);
    const kept =
      options.plannerState === undefined
        ? ''
        : `, kept AS (
       UPDATE runs SET planner_state = $${params.push(options.plannerState)}::jsonb, updated_at = now()
        WHERE id = $3 AND status = 'running'
          AND EXISTS (SELECT 1 FROM moved WHERE phase = 'sending'))`;
    // The run's row is locked before the step's (the lock order above).
    const rows = await this.settings.underSharedLock<GateRow & { phase: StepPhase | null }>(
      step.tenant,
      `WITH locked AS (SELECT 1 FROM runs WHERE id = $3 FOR NO KEY UPDATE),
       gate AS (${gateSql(options.approved, GATE_PARAMS)}),
       held AS (SELECT writes_need_approval OR NOT script_as_granted AS needs FROM gate),
       open AS (
         SELECT run_status = 'running' AND enabled AND agent_configured AND NOT kill_engaged
                AND NOT paused AND approval_spent AND mask_settled AND secret_granted
                AND NOT (${options.unapprovedWrite} AND needs
                         AND NOT (${options.staged === true} AND stages_typing))
                AND (loosening_in_force OR NOT needs) AS ok FROM gate, held),
       moved AS (
         UPDATE steps SET ${sets.join(', ')}
          WHERE id = $1 AND phase = $2 AND EXISTS (SELECT 1 FROM locked) RETURNING phase)${kept}
       SELECT (SELECT phase FROM moved) AS phase, gate.* FROM gate`,
      params,
    );
    const result = rows[0] ?? null;
    if (!result) return { moved: false, gate: null };
    if (result.phase !== null) Object.assign(step, options.fields ?? {}, { phase: result.phase });
    return { moved: result.phase === 'sending', gate: toGate(result) };
  }

  /**
   * A `sending` step that the send gate let go as an unapproved write, not as it was decided (a
   * staged edit, a read by a weakening): its record says write, not staged, resting on no
   * weakening, and why.
   */
  async sentAsUnapprovedWrite(step: Step, why: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE steps SET classification = 'write', staged = NULL, loosened_by = NULL, why = $2
        WHERE id = $1 AND phase = 'sending'`,
      [step.id, why],
    );
    Object.assign(step, { classification: 'write', staged: null, loosenedBy: null, why });
  }

  /**
   * The same checks as markSending, for a step that is already `sending` and is about to be sent
   * again (its worker died and the host says it did not act).
   */
  async sendGate(step: Step, approved: boolean, secret: SentSecret): Promise<SendGate | null> {
    const sql = gateSql(approved, {
      run: '$1',
      env: '$2',
      origin: '$3',
      loosening: '$4',
      planned: '$5',
      step: '$6',
    });
    const rows = await this.settings.underSharedLock<GateRow>(step.tenant, sql, [
      step.runId,
      secret.envName,
      secret.origin,
      step.loosenedBy ? JSON.stringify(step.loosenedBy) : null,
      step.plannerSha256,
      ...(approved ? [step.id] : []),
    ]);
    return rows[0] ? toGate(rows[0]) : null;
  }
}
