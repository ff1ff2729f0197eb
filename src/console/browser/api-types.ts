/**
 * What the console reads from the API: the answers' types as the OpenAPI document declares them
 * (`@warden/client`, generated from docs/openapi.json), imported as types only, so nothing of the
 * client is bundled. Where the document leaves an object free-form (a change list's line, a staged
 * edit, the injection rail's flag, how a label was read, a receipt, a provider's safety check, a
 * rectangle), this file says which fields of it the console reads; every other field is the
 * document's. Types only: the specs of the console's words import them without the browser's
 * globals.
 */
import type { Schemas } from '@warden/client';
import type { Rect } from '@warden/protocol/outline';

export type { Rect };

/** The document's type with some of its free-form fields said field by field. */
type Refined<T, R> = Omit<T, keyof R> & R;

/**
 * Who is signed in. `session`: signed in through the identity provider (a cookie session), not
 * with a token.
 */
export type Me = Schemas['Me'];
export type Permission = Me['permissions'][number];

/** An action as a step or an approval holds it: whatever the planner answered, checked or not. */
export type Action = Schemas['Approval']['action'];

/** A check a model provider raised on an action, as the provider worded it. */
export interface SafetyCheck {
  id: string;
  code: string | null;
  message: string | null;
}

/** The injection rail's flag on the screen the write was held on. */
export interface RailFlag {
  verdict: 'clean' | 'suspect' | 'injected';
  rule: string | null;
  text_sha256: string | null;
  source: 'outline' | 'ocr' | null;
  rect: Rect | null;
}

type Redaction = NonNullable<Schemas['Approval']['redaction']>;
type Volatile = NonNullable<Schemas['Approval']['volatile_regions']>;

/** Where the pixels that moved by themselves while a write was held are, in the frame's pixels. */
export type VolatileRegions = Refined<Volatile, { rects: Rect[] }>;

/**
 * A waiting action. `for_you` (what this person may do with it) comes with the answer of
 * `GET /api/approvals/{id}` only, not with a decision's.
 */
export type Approval = Refined<
  Schemas['Approval'],
  {
    volatile_regions: VolatileRegions | null;
    safety_checks: SafetyCheck[] | null;
    changes: Change[] | null;
    rail: RailFlag | null;
    redaction: Refined<Redaction, { regions: Rect[] }> | null;
  }
> &
  Partial<Pick<Schemas['ApprovalForYou'], 'for_you'>>;

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

/** The model call that planned a step; `calls` 0: a planner that asks no model (its `notes`). */
export type ModelUsage = NonNullable<Schemas['Step']['model']>;

/** A held write's approval as its step shows it: who decided, when, the comment, who resumed. */
export type StepApproval = NonNullable<Schemas['Step']['approval']>;

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

export type Step = Refined<
  Schemas['Step'],
  {
    staged?: StagedEdit;
    edit?: StagedEdit;
    receipt?: Receipt;
    label_evidence?: LabelEvidence;
  }
>;

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

export type Run = Refined<Schemas['Run'], { pending_approval: Approval | null; steps?: Step[] }>;

export type AuditEvent = Schemas['AuditEvent'];
export type Verify = Schemas['AuditVerification'];
export type ModelCall = Schemas['ModelCall'];
export type Transcript = Schemas['Transcript'];

/** A page of a list: its items and the cursor of the next page (null: the last page). */
export type ListPage<T> = Refined<Schemas['RunPage'], { items: T[] }>;

/** The tenant's pause (`GET /api/admin/pause`): one switch for every agent. */
export type Pause = Schemas['Pause'];
/** An agent's kill switch (`GET /api/admin/agents/{name}/kill-switch`). */
export type KillSwitch = Schemas['KillSwitch'];

/** The config in force (`GET /api/admin/computer-use`). */
export type ComputerUseConfig = Schemas['ComputerUseConfig'];
/** An agent of the config in force, defaults filled in. */
export type AgentConfig = Schemas['AgentConfig'];
/** An agent's script grant as the config answers it (`script_grants`). */
export type ScriptGrant = ComputerUseConfig['script_grants'][string];

/** The scripted planners (`GET /api/planners/scripted`), and one as saved from a run. */
export type ScriptedPlannerPage = Schemas['ScriptedPlannerPage'];
export type ScriptedPlannerAnswer = Schemas['ScriptedPlannerAnswer'];

/** A chat account linked to a person, and a link code's preview before it is confirmed. */
export type ChatLink = Schemas['ChatLink'];
export type ChatLinkCode = Schemas['ChatLinkCode'];
export type ChatLinkList = Schemas['ChatLinkList'];

/** The planners' catalog (`GET /api/planners`), each available to this tenant or not, and why. */
export type Catalog = Schemas['PlannerCatalog'];
export type CatalogPlanner = Schemas['CatalogPlanner'];

/** The inventory of agents (`GET /api/admin/inventory`). */
export type Inventory = Schemas['Inventory'];
export type InventoryAgent = Inventory['agents'][number];
/** An agent's planner as the inventory names it. */
export type InventoryPlanner = InventoryAgent['planner'];
/** How an agent's runs went over a window of days. */
export type RunWindow = InventoryAgent['runs_7d'];

/** How approvers decide (`GET /api/admin/oversight`). */
export type OversightReport = Schemas['OversightReport'];
export type OversightTest = Schemas['OversightTest'];
