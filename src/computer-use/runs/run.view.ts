import type { Approval } from '../approvals/approval.entity';
import { approvalView, ApprovalView } from '../approvals/approval.view';
import type { Run } from './run.entity';
import type { LabelEvidence, StagedEdit } from '../actions';
import { isReceipt, type Receipt } from '../actions/receipt';
import type { ModelUsage, StepBatch } from '../planner-contract/planner';
import type { RailRecord } from '../rail/screen-rail';
import type { PlannedBy, RecordedAction, Step, StepTimingEntry } from './step.entity';

/**
 * What planning a run cost, over its steps: the steps the script and its fallback answered (a
 * scripted run), the model calls, tokens and cost. A token count or cost is null where some step's
 * was unknown (unknown usage stays unknown, never zero).
 */
export interface PlanningSummary {
  script_steps: number;
  fallback_steps: number;
  model_calls: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
}

export function planningSummary(steps: readonly Step[]): PlanningSummary {
  const sum: PlanningSummary = {
    script_steps: 0,
    fallback_steps: 0,
    model_calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: 0,
  };
  const add = (total: number | null, n: number | null | undefined) =>
    total === null || n === null || n === undefined ? null : total + n;
  for (const step of steps) {
    if (step.plannedBy === 'script') sum.script_steps++;
    if (step.plannedBy === 'fallback') sum.fallback_steps++;
    const model = step.model;
    // A planner that asks no model (the navigator) keeps notes but names no provider's usage.
    if (!model || model.calls === 0) continue;
    sum.model_calls += model.calls ?? 1;
    sum.input_tokens = add(sum.input_tokens, model.input_tokens);
    sum.output_tokens = add(sum.output_tokens, model.output_tokens);
    sum.cost_usd = add(sum.cost_usd, model.cost_usd);
  }
  if (sum.cost_usd !== null) sum.cost_usd = Math.round(sum.cost_usd * 1e6) / 1e6;
  return sum;
}

/** A step as the API shows it (docs/api.md). */
export interface StepView {
  n: number;
  screen_sha256: string | null;
  screen_pixel_sha256: string | null;
  width: number | null;
  height: number | null;
  action: RecordedAction | null;
  classification: 'read' | 'write' | 'invalid' | null;
  why: string | null;
  outcome: string | null;
  error?: string;
  /** A staged edit under commit-point approval (docs/security.md): the field, its value before, the text. */
  staged?: StagedEdit;
  /** An edit held for a person (`every_write`): the field it goes into and its value before. */
  edit?: StagedEdit;
  /** The injection rail's verdict on the step's screen (a model's step): no text, its SHA-256. */
  rail?: RailRecord;
  /** A sent write's receipt: what the application said after it, or why nothing was read. */
  receipt?: Receipt;
  /** A held write's approval: who decided it, when, with which comment, and who resumed. */
  approval?: StepApproval;
  model?: ModelUsage;
  /** How the label was read: the outline's element, OCR's words, or why nothing could be read. */
  label_evidence?: LabelEvidence;
  /** Per job of the step: total, screen host, planner, pauses and Warden's overhead, in ms. */
  timings?: StepTimingEntry[];
  /** Which planner answered a scripted run's step: `script`, or its `fallback` model. */
  planned_by?: PlannedBy;
  /** The model's answer of several actions (a batch) the step's action came in, and its place. */
  batch?: StepBatch;
  started_at: string;
  ended_at: string | null;
}

export interface StepApproval {
  id: string;
  status: string;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
  resumed_by: string | null;
  resumed_at: string | null;
}

export interface RunView {
  id: string;
  agent: string;
  /** The system the agent works, as its config names it (`system`), when the run started. */
  system: string | null;
  goal: string;
  status: string;
  end_reason: string | null;
  summary: string | null;
  created_by: string;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  active_seconds: number;
  max_steps: number;
  max_seconds: number;
  step_count: number;
  invalid_actions: number;
  pending_approval: ApprovalView | null;
  /** The parameters a run of a script was started with. */
  params?: Record<string, string>;
  /** What planning the run cost, over its steps (with its steps only). */
  planning?: PlanningSummary;
  steps?: StepView[];
}

export function runView(
  run: Run,
  options: { steps?: Step[]; approval?: Approval | null; decisions?: Approval[] } = {},
): RunView {
  const byStep = new Map((options.decisions ?? []).map((a) => [a.stepId, a]));
  const decisionOf = (s: Step) => byStep.get(s.id);
  const running = run.activeSince ? (Date.now() - run.activeSince.getTime()) / 1000 : 0;
  return {
    id: run.id,
    agent: run.agent,
    system: run.agentConfig.system ?? null,
    goal: run.goal,
    status: run.status,
    end_reason: run.endReason,
    summary: run.summary,
    created_by: run.createdBy,
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    ended_at: run.endedAt?.toISOString() ?? null,
    active_seconds: Math.round((run.activeSeconds + running) * 1000) / 1000,
    max_steps: run.maxSteps,
    max_seconds: run.maxSeconds,
    step_count: run.stepCount,
    invalid_actions: run.invalidActions,
    pending_approval: options.approval ? approvalView(options.approval) : null,
    ...(run.params ? { params: run.params } : {}),
    ...(options.steps ? { planning: planningSummary(options.steps) } : {}),
    ...(options.steps ? { steps: options.steps.map((s) => stepView(s, decisionOf(s))) } : {}),
  };
}

function stepApproval(a: Approval): StepApproval {
  return {
    id: a.id,
    status: a.status,
    decided_by: a.decidedBy,
    decided_at: a.decidedAt?.toISOString() ?? null,
    comment: a.comment,
    resumed_by: a.spentBy,
    resumed_at: a.spentAt?.toISOString() ?? null,
  };
}

export function stepView(step: Step, approval?: Approval): StepView {
  return {
    n: step.n,
    screen_sha256: step.screenSha256,
    screen_pixel_sha256: step.screenPixelSha256,
    width: step.width,
    height: step.height,
    action: step.action,
    classification: step.classification,
    why: step.why,
    outcome: step.outcome,
    ...(step.error ? { error: step.error } : {}),
    ...(step.staged ? { staged: step.staged } : {}),
    ...(step.edit ? { edit: step.edit } : {}),
    ...(step.rail ? { rail: step.rail } : {}),
    ...(isReceipt(step.receipt) ? { receipt: step.receipt } : {}),
    ...(approval ? { approval: stepApproval(approval) } : {}),
    ...(step.model ? { model: step.model } : {}),
    ...(step.labelEvidence ? { label_evidence: step.labelEvidence } : {}),
    ...(step.timings ? { timings: step.timings } : {}),
    ...(step.plannedBy ? { planned_by: step.plannedBy } : {}),
    ...(step.batch ? { batch: step.batch } : {}),
    started_at: step.startedAt.toISOString(),
    ended_at: step.endedAt?.toISOString() ?? null,
  };
}
