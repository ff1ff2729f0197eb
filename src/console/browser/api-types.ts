/**
 * What the console reads from the API, as far as it uses it (docs/api.md says all of it). Types
 * only: the specs of the console's words import them without the browser's globals.
 */
import type { Rect } from '@warden/protocol/outline';

export type { Rect };

/**
 * Who is signed in. `session`: signed in through the identity provider (a cookie session), not
 * with a token.
 */
export interface Me {
  tenant: string;
  subject: string;
  token_id: string;
  permissions: string[];
  session?: { csrf_token: string; groups: string[] };
}

/** An action as a step or an approval holds it: whatever the planner answered, checked or not. */
export type Action = Record<string, unknown> & { action?: unknown };

export interface Approval {
  id: string;
  kind: string;
  status: 'pending' | 'approved' | 'rejected' | 'expired' | 'spent';
  tenant: string;
  agent: string;
  /** Null for a waiting action with no run (it says its goal and system itself). */
  run_id: string | null;
  step: number;
  goal?: string | null;
  system?: string | null;
  action: Action;
  why: string;
  screen_sha256: string | null;
  screen_pixel_sha256: string | null;
  volatile_pixels: number;
  volatile_mask: 'learning' | 'learnt' | 'abandoned';
  volatile_regions: VolatileRegions | null;
  requested_by: string;
  created_at: string;
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
  spent_by: string | null;
  spent_at: string | null;
  safety_checks?: Array<{ id: string; code: string | null; message: string | null }> | null;
  changes?: Change[] | null;
  rail?: {
    verdict: 'clean' | 'suspect' | 'injected';
    rule: string | null;
    text_sha256: string | null;
    source: 'outline' | 'ocr' | null;
    rect: Rect | null;
  } | null;
  /** The agent's redact_regions as the write was held; null: it redacted nothing. */
  redaction?: { percent: number; regions: Rect[]; target: boolean; changes: number[] } | null;
  may_decide_now?: string[] | null;
  escalates_at?: string | null;
  for_you?: { approve: string | null; reject: string | null };
  escalated_at?: string | null;
  reminded_at?: string | null;
}

/** Where the pixels that moved by themselves while a write was held are, in the frame's pixels. */
export interface VolatileRegions {
  frame: { width: number; height: number };
  rects: Rect[];
}

/**
 * One line of a held commit's change list (commit-point approval): a field, its value before
 * (null: nothing read it), what the run typed last (null: only Backspace), the value read back on
 * the held screen (null: not read), the last step that edited it, and where it is (the action's
 * coordinates; where it was, when it is not on the held screen). `kind` `navigation`: not a
 * change the commit stores (a field typed on an earlier screen that a screen rule's read left).
 */
export interface Change {
  field: string;
  before: string | null;
  after: string | null;
  read_back: string | null;
  read_back_check: 'same' | 'differs' | 'unread' | 'earlier' | 'unexplained';
  step: number;
  rect: Rect | null;
  kind?: 'navigation';
}

/**
 * A staged edit (outcome `staged`): the field, its value before, the text typed (null for a
 * Backspace).
 */
export interface StagedEdit {
  field: {
    label: string;
    id: string | null;
    rect: Rect | null;
    at: { x: number; y: number } | null;
  };
  before: string | null;
  text: string | null;
  key?: 'Backspace';
  click?: true;
  selected?: true;
}

export interface ModelUsage {
  provider?: string;
  model?: string;
  input_tokens?: number | null;
  output_tokens?: number | null;
  latency_ms?: number;
  calls?: number;
  notes?: string;
}

/** A held write's approval as its step shows it: who decided, when, the comment, who resumed. */
export interface StepApproval {
  id: string;
  status: string;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
  resumed_by: string | null;
  resumed_at: string | null;
}

/** A message the application showed: its status bar (with SAP's type S, I, W, E or A) or a dialog. */
export interface AppMessage {
  source: 'status' | 'dialog';
  type: string | null;
  text: string;
}

/**
 * What the application said after a write was sent (`fresh`: not the message shown before), or
 * why nothing was read (`none`).
 */
export interface Receipt {
  before: AppMessage | null;
  message?: AppMessage;
  fresh?: boolean;
  none?: string;
}

export interface Step {
  n: number;
  screen_sha256: string | null;
  screen_pixel_sha256: string | null;
  width: number | null;
  height: number | null;
  action: Action | null;
  classification: 'read' | 'write' | 'invalid' | null;
  why: string | null;
  outcome: string | null;
  error?: string;
  staged?: StagedEdit;
  edit?: StagedEdit;
  receipt?: Receipt;
  approval?: StepApproval;
  model?: ModelUsage;
  label_evidence?: LabelEvidence;
  timings?: Array<Record<string, unknown>>;
  /** The model's answer of several actions the step's action came in, and its place there. */
  batch?: { turn: string; place: number };
  started_at: string;
  ended_at: string | null;
}

/**
 * The element the screen host's outline has where a click lands, or the focused field typing goes
 * into: its role, name and description as the host says them (screen text), and where it is.
 */
export interface EvidenceElement {
  id: string;
  role: string;
  name: string;
  description?: string;
  rect?: Rect;
}

/** One word OCR read, with tesseract's confidence (0–100). */
export interface OcrWord {
  text: string;
  confidence: number;
}

/**
 * How the label the rules judged was read (a step's `label_evidence`, docs/api.md): the outline's
 * element, the words OCR read with their confidences, or why nothing could be read; `of` the
 * point clicked or the field typed into, with the planner's `target` where it gave one.
 */
export type LabelEvidence = (
  | { source: 'outline'; element: EvidenceElement }
  | { source: 'ocr'; words: OcrWord[]; box?: Rect }
  | { source: 'none'; why: string }
) & { of: 'click' | 'field'; target?: string };

export interface Run {
  id: string;
  agent: string;
  system?: string | null;
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
  pending_approval: Approval | null;
  steps?: Step[];
}

export interface AuditEvent {
  id: string;
  tenant: string;
  seq: number;
  type: string;
  actor: string;
  run_id: string | null;
  step: number | null;
  at: string;
  details: Record<string, unknown>;
  prev_sha256: string;
  sha256: string;
}

export interface Verify {
  ok: boolean;
  checked: number;
  first_bad_id?: string;
  head_sha256: string;
}

export interface ModelCall {
  seq: number;
  provider: string;
  model: string;
  request: Record<string, unknown>;
  answer: Record<string, unknown> | null;
  error: Record<string, unknown> | null;
  attempts: Array<Record<string, unknown>>;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  latency_ms: number;
  created_at: string;
}

export interface Transcript {
  run_id: string;
  n: number;
  calls: ModelCall[];
}

/** A page of a list: its items and the cursor of the next page (null: the last page). */
export interface ListPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** The tenant's pause (`GET /api/admin/pause`): one switch for every agent. */
export interface Pause {
  paused: boolean;
  reason: string | null;
  updated_by: string | null;
  updated_at: string | null;
}

/** An agent's kill switch (`GET /api/admin/agents/{name}/kill-switch`). */
export interface KillSwitch {
  agent: string;
  engaged: boolean;
  reason: string | null;
  updated_by: string | null;
  updated_at: string | null;
}

/** What the Admin page reads of an agent's config in force. */
export interface AgentConfig {
  planner?: unknown;
  require_write_approval?: boolean;
  approve_at?: string;
  four_eyes?: boolean;
  approvers?: string[];
  escalate_to?: string[];
  screen_rules?: Array<Record<string, unknown>>;
  system?: string;
}

/** An agent's script grant as the config answers it (`script_grants`). */
export interface ScriptGrant {
  sha256: string;
  version: number;
  granted_by: string;
  granted_at: string;
}

/** A planner of the catalog (`GET /api/planners`), available to this tenant or not, and why. */
export interface CatalogPlanner {
  id: string;
  name: string;
  runs: string;
  pixels: boolean;
  available: boolean;
  why: string;
  serving?: boolean;
}

export interface Catalog {
  default: string | null;
  tags: string[];
  planners: CatalogPlanner[];
}

/** How an agent's runs went over a window of days. */
export interface RunWindow {
  runs: number;
  ended: number;
  completed: number;
  success_rate: number | null;
}

/** An agent's planner as the inventory names it. */
export type InventoryPlanner =
  | { kind: 'scripted' | 'catalog'; id: string }
  | { kind: 'model'; provider: string; model: string }
  | { kind: 'default' };

/** One agent of the inventory (`GET /api/admin/inventory`). */
export interface InventoryAgent {
  agent: string;
  system: string | null;
  screen_host: string;
  planner: InventoryPlanner;
  write_approval: { require_write_approval: boolean; approve_at: string };
  last_run: {
    id: string;
    status: string;
    end_reason: string | null;
    ended_at: string | null;
  } | null;
  runs_7d: RunWindow;
  runs_30d: RunWindow;
  approvals_30d: { decided: number; median_seconds_to_decide: number | null };
}

export interface Inventory {
  enabled: boolean;
  config_version: number;
  agents: InventoryAgent[];
}
