import type { OutlineElement, StagedEdit } from '../actions';
import type { TargetSeen } from './batch-target';

/** What the engine shows a planner: one screen, seen at one moment. */
export interface ObservedScreen {
  /** SHA-256 of the PNG bytes. */
  sha256: string;
  /** SHA-256 over width, height and RGBA pixels: equal for re-encodings of the same pixels. */
  pixelSha256: string;
  /** The screen host's coordinate space (X-Screen-Width/Height): actions use it. */
  width: number;
  height: number;
  png: Buffer;
  /**
   * The host's hash of the frame it captured (`X-Frame-SHA256`, docs/screen-host.md); null or absent when
   * the host sends none. For the engine, which sends it back with the action judged on it.
   */
  frameSha256?: string | null;
  /** SHA-256 of the real pixels under the agent's `redact_regions`; absent without redaction. */
  hiddenSha256?: string;
  /** The outline at that moment, or null when the host has none. */
  outline: OutlineElement[] | null;
}

/** One earlier step of the run, as the planner may be told about it. */
export interface StepHistory {
  n: number;
  action: unknown;
  classification: 'read' | 'write' | 'invalid' | null;
  why: string | null;
  outcome: string | null;
  error: string | null;
  screen_sha256: string | null;
  /** A staged edit (docs/security.md, commit-point approval); null otherwise. */
  staged?: StagedEdit | null;
  /** An edit held for a person under `every_write`: its field and value before; null otherwise. */
  edit?: StagedEdit | null;
  /** What made the step a read although the default rules make it a write; null otherwise. */
  loosened_by?: unknown;
  /** The batch the step's action came in (its turn and place); null: none. */
  batch?: StepBatch | null;
}

/** Which of a model's answers (a turn) an action came in, and its place there (1-based). */
export interface StepBatch {
  turn: string;
  place: number;
}

export interface PlanningContext {
  tenant: string;
  runId: string;
  agent: string;
  goal: string;
  /** The system the agent works, from its config (`system`). */
  system: string | null;
  /**
   * The variable holding the agent's screen host token (`screen_token_env`): a model planner keeps
   * its value out of everything it sends and stores.
   */
  screenTokenEnv: string | null;
  /** This step's number (1-based). */
  step: number;
  /** The run's step cap (`max_steps`). */
  maxSteps?: number;
  screen: ObservedScreen;
  history: StepHistory[];
  /** What this planner stored for this run after its previous step (null on the first). */
  state: unknown;
  /** The parameters the run was started with (a script's, `{order: "4712"}`); null: none. */
  params?: Record<string, string> | null;
  /**
   * Takes a fresh screenshot and outline. A planner that waits for the screen (a scripted `when`)
   * calls it; the screen it finally decides on must be returned as `PlanResult.screen`.
   */
  look(): Promise<ObservedScreen>;
  signal: AbortSignal;
}

export interface ModelUsage {
  provider: string;
  model: string;
  input_tokens: number | null;
  output_tokens: number | null;
  latency_ms: number;
  /** USD, or null when a price or the usage is unknown (model planners). */
  cost_usd?: number | null;
  /** Calls made to the model for the step (a model may look again). */
  calls?: number;
  /** Of `input_tokens`, read from and written to the provider's prompt cache (model planners). */
  cache_read_tokens?: number | null;
  cache_write_tokens?: number | null;
  /**
   * What a planner that asks no model says of its choice, kept with the step (the navigator: the
   * energies of its five best controls). Written by Warden's own code, never a model's words.
   */
  notes?: string;
}

/** A check a model provider raised on an action (OpenAI `pending_safety_checks`). */
export interface ProviderSafetyCheck {
  id: string;
  code: string | null;
  message: string | null;
}

export interface PlanResult {
  /** The planner's answer as untrusted JSON: Warden parses, validates and classifies it. */
  action: unknown;
  /** Stored with the run and handed back as `state` on the next step. */
  state: unknown;
  /** The screen the action was chosen on, when it is not `context.screen` (after `look()`). */
  screen?: ObservedScreen;
  model?: ModelUsage | null;
  /**
   * Which planner of a scripted planner answered: `script`, or `fallback` (its model, where the
   * screen was not the one the script expected). Absent for other planners.
   */
  plannedBy?: 'script' | 'fallback';
  /**
   * The provider's safety checks on this action: the action is held for a person whatever the
   * rules classify it as, and the checks are shown to the approver.
   */
  safetyChecks?: ProviderSafetyCheck[];
  /**
   * The action is one of several the model answered in one turn (docs/step-flow.md, "A batch"):
   * which turn and its place there, and for every action after a turn's first what the screen the
   * model decided on showed where it lands. The engine sends it only where the screen still shows
   * that; otherwise the batch stops at this step.
   */
  batch?: StepBatch & { seen: TargetSeen | null };
  /**
   * The decision comes from outside Warden (a remote planner, docs/models.md) and is not here yet: the
   * step's job ends without holding a worker, and the step is taken again when it comes (or when
   * its deadline or its workers' heartbeat is due). `action` is then null.
   */
  waits?: boolean;
}

/** Chooses the next action of a run. Scripted planners and model planners both implement it. */
export interface Planner {
  plan(context: PlanningContext): Promise<PlanResult>;
  /**
   * A scripted planner's content hash (script-sha256.ts), as it was made from the stored script:
   * each of its answers, its fallback's included, is planned by that content. Absent for other
   * planners.
   */
  readonly scriptSha256?: string;
}
