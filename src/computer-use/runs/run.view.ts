import type { Approval } from '../../approvals/approval.entity';
import { approvalView, ApprovalView } from '../../approvals/approval.view';
import type { Run } from './run.entity';
import type { LabelEvidence, StagedEdit } from '../actions';
import type { ModelUsage } from '../planning/planner';
import type { RailRecord } from '../rail/screen-rail';
import type { RecordedAction, Step, StepTimingEntry } from './step.entity';

/** A step as the API shows it (DESIGN §9). */
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
  /** A staged edit under commit-point approval (DESIGN §6): the field, its value before, the text. */
  staged?: StagedEdit;
  /** The injection rail's verdict on the step's screen (a model's step): no text, its SHA-256. */
  rail?: RailRecord;
  model?: ModelUsage;
  /** How the label was read: the outline's element, OCR's words, or why nothing could be read. */
  label_evidence?: LabelEvidence;
  /** Per job of the step: total, screen host, planner, pauses and Warden's overhead, in ms. */
  timings?: StepTimingEntry[];
  started_at: string;
  ended_at: string | null;
}

export interface RunView {
  id: string;
  agent: string;
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
  steps?: StepView[];
}

export function runView(
  run: Run,
  options: { steps?: Step[]; approval?: Approval | null } = {},
): RunView {
  const running = run.activeSince ? (Date.now() - run.activeSince.getTime()) / 1000 : 0;
  return {
    id: run.id,
    agent: run.agent,
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
    ...(options.steps ? { steps: options.steps.map(stepView) } : {}),
  };
}

export function stepView(step: Step): StepView {
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
    ...(step.rail ? { rail: step.rail } : {}),
    ...(step.model ? { model: step.model } : {}),
    ...(step.labelEvidence ? { label_evidence: step.labelEvidence } : {}),
    ...(step.timings ? { timings: step.timings } : {}),
    started_at: step.startedAt.toISOString(),
    ended_at: step.endedAt?.toISOString() ?? null,
  };
}
