import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Action, LabelEvidence, StagedEdit } from '../actions';
import type { PendingReceipt, Receipt } from '../actions/receipt';
import type { ModelUsage, StepBatch } from '../planner-contract/planner';
import type { RailRecord } from '../rail/screen-rail';
import { Run } from './run.entity';
import type { StepPhase } from './step-phase';

export type { StepPhase } from './step-phase';

/** Which planner answered a scripted run's step. */
export type PlannedBy = 'script' | 'fallback';

/** The agent config fields a read rests on (`Step.loosenedBy`). */
export type Loosening = Record<string, unknown>;

export type StepOutcome =
  | 'sent'
  | 'held'
  | 'sent_after_approval'
  | 'staged'
  | 'stale'
  | 'rejected'
  | 'refused'
  | 'ended'
  | 'screen_changed'
  | 'refused_by_application';

/**
 * The action a step recorded: the validated action, or for a refused answer what the planner
 * said, bounded and with card numbers masked.
 */
export type RecordedAction = Action | Record<string, unknown>;

/** Where one job's time went, in ms (the engine's step timing). */
export interface StepTimingEntry {
  job: 'step' | 'approved';
  total_ms: number;
  host_ms: number;
  planner_ms: number;
  pause_ms: number;
  overhead_ms: number;
}

/** One step of a run. Its id is the Idempotency-Key of its action. */
@Entity({ name: 'steps' })
@Index('steps_run_n_key', ['runId', 'n'], { unique: true })
export class Step {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'run_id', type: 'uuid' })
  runId: string;

  @ManyToOne(() => Run, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'run_id' })
  run?: Run;

  @Column({ type: 'text' })
  tenant: string;

  @Column({ type: 'integer' })
  n: number;

  @Column({ type: 'text' })
  phase: StepPhase;

  @Column({ name: 'screen_sha256', type: 'char', length: 64, nullable: true })
  screenSha256: string | null;

  @Column({ name: 'screen_pixel_sha256', type: 'char', length: 64, nullable: true })
  screenPixelSha256: string | null;

  /**
   * The host's frame hash of the screen (`X-Frame-SHA256`; computed by Warden for a redacting
   * agent's host that sends none): what the host compares when the action is sent after a hold.
   */
  @Column({ name: 'frame_sha256', type: 'char', length: 64, nullable: true })
  frameSha256: string | null;

  /** SHA-256 of the real pixels under the agent's `redact_regions` (host-client/redaction.ts). */
  @Column({ name: 'hidden_sha256', type: 'char', length: 64, nullable: true })
  hiddenSha256: string | null;

  @Column({ type: 'integer', nullable: true })
  width: number | null;

  @Column({ type: 'integer', nullable: true })
  height: number | null;

  @Column({ type: 'jsonb', nullable: true })
  action: RecordedAction | null;

  @Column({ type: 'text', nullable: true })
  classification: 'read' | 'write' | 'invalid' | null;

  @Column({ type: 'text', nullable: true })
  why: string | null;

  @Column({ type: 'text', nullable: true })
  outcome: StepOutcome | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'jsonb', nullable: true })
  model: ModelUsage | null;

  /**
   * A staged edit (docs/security.md, commit-point approval): the field, its value before, the text typed.
   * Null for every other step.
   */
  @Column({ type: 'jsonb', nullable: true })
  staged: StagedEdit | null;

  /**
   * An edit held for a person (`approve_at: "every_write"`): the field it goes into, its value
   * before and whether typing replaces it, located as for staging. Null for every other step.
   */
  @Column({ type: 'jsonb', nullable: true })
  edit: StagedEdit | null;

  /**
   * What made the action a read although the default rules make it a write: the agent's config
   * fields it rests on, as they were (`{unlabelled_clicks: "read"}`, `{screen_rules: […]}`). The
   * send requires the config in force to hold them still (docs/security.md). Null for every other step.
   */
  @Column({ name: 'loosened_by', type: 'jsonb', nullable: true })
  loosenedBy: Loosening | null;

  /**
   * The injection rail's verdict on the step's screen, for a model's step (issue 16 §2): the
   * verdict, the rule and the SHA-256 of the flagged text, never the text. Null: not looked at.
   */
  @Column({ type: 'jsonb', nullable: true })
  rail: RailRecord | null;

  /**
   * What the application said after the step's write was sent (its receipt: a status bar or a
   * message dialog, or why none was read). Until then, for a step decided on a screen, the message
   * that screen showed (`{before}`), so that a message left from an earlier action is not taken
   * for this one's answer. Null: no screen action.
   */
  @Column({ type: 'jsonb', nullable: true })
  receipt: Receipt | PendingReceipt | null;

  /**
   * How the action's label was read (a click's, or a typed field's): the outline's element, or
   * OCR's words with their confidences, or why nothing could be read, and the planner's target.
   * Null for other actions and for steps from before it was kept.
   */
  @Column({ name: 'label_evidence', type: 'jsonb', nullable: true })
  labelEvidence: LabelEvidence | null;

  /**
   * The title of the screen the step decided on (the outline's `title` element), which a script
   * saved from the run waits for. Null: the host named no title, or the step is older.
   */
  @Column({ name: 'screen_title', type: 'text', nullable: true })
  screenTitle: string | null;

  /**
   * Which planner answered a scripted run's step: `script` (the script's own step) or `fallback`
   * (the script's fallback model, where the screen was not the one the script expected). Null for
   * other planners.
   */
  @Column({ name: 'planned_by', type: 'text', nullable: true })
  plannedBy: PlannedBy | null;

  /**
   * SHA-256 of the content of the script that planned the step (its own step or its fallback's),
   * as the engine read it for this step; null for other planners. An unapproved write goes only
   * while it is the content granted to the agent (docs/security.md "Weakening").
   */
  @Column({ name: 'planner_sha256', type: 'char', length: 64, nullable: true })
  plannerSha256: string | null;

  /**
   * The model's answer of several actions (a batch) this step's action came in: the answer's id
   * and the action's place in it (docs/step-flow.md, "A batch"). Null for every other step.
   */
  @Column({ type: 'jsonb', nullable: true })
  batch: StepBatch | null;

  /** Where each job's time went (host, planner, pauses, Warden's own overhead), in ms. */
  @Column({ type: 'jsonb', nullable: true })
  timings: StepTimingEntry[] | null;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;

  /** Jobs that failed on this step with an unexpected error; past a bound the run ends. */
  @Column({ type: 'integer', default: 0 })
  failures: number;

  /** The worker working on this step, until `lease_until`: a second worker leaves it alone. */
  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;
}
