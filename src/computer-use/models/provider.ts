import type { PlanResult, ProviderSafetyCheck } from '../planner-contract/planner';
import type { ModelProvider } from '../settings/agent-config';
import type { ModelTool } from '../../config/model-tools';
import type { Usage } from './budget';
import type { Size } from './scaling';

/** A screenshot as sent to a model: downscaled PNG bytes, named by the original screen's SHA-256. */
export interface ModelImage {
  png: Buffer;
  /** SHA-256 of the screen host's PNG this was made from (what the transcript keeps). */
  sha256: string;
  /** Said just before the image, e.g. "The screen before step 3:". */
  label: string;
  /** Its size when it is not the display's (a zoomed region). */
  size?: { width: number; height: number };
}

/** A provider safety check (OpenAI `pending_safety_checks`), shown to the approver. */
export type SafetyCheck = ProviderSafetyCheck;

/** A plan with what only model planners have: safety checks the provider raised. */
export interface ModelPlanResult extends PlanResult {
  safetyChecks: SafetyCheck[];
}

/**
 * What a planner keeps of the model's previous answer to continue the conversation from it
 * (OpenAI: the call gets its output, safety checks their acknowledgement). Anthropic's requests
 * carry no previous turn: each is the run's timeline, so that one step's request is the start of
 * the next one's and the prompt cache hits (issue 18 §3).
 */
export type Continuation = {
  provider: 'openai';
  /** The response's output items (reasoning, message, the one call), to send back as they are. */
  items: unknown[];
  call_id: string;
  call_type: 'computer_call' | 'function_call';
  safety_checks: SafetyCheck[];
};

/** An earlier step as the model is told it: its screenshot (when still shown) and what became of it. */
export interface TimelineEntry {
  /** Labelled `The screen at step n:`; null when no longer shown (see `shownScreens`). */
  screen: ModelImage | null;
  /** `n. click at (x, y) (a read): sent`. */
  line: string;
}

/** What became of one call of an earlier answer, as the model is told in the provider's format. */
export interface CallResult {
  /** The call's id (Anthropic's `tool_use` id); null where the provider answers a call as a whole. */
  id: string | null;
  /** A member of Anthropic's computer toolset: its `tool_result` names the toolset. */
  toolset: boolean;
  text: string;
  /** Not done: refused, not sent, or not executed. */
  error: boolean;
  /** A look or a zoom: the screen (or the region) as it was at that moment. */
  image?: ModelImage;
}

/**
 * An earlier answer of the model and what Warden answered it (the batch tools, docs/models.md): its
 * calls' results, the screen after it, and what is asked then. Each is the end of one request and
 * the middle of the next, so that the provider's prompt cache reads the whole conversation.
 */
export interface Exchange {
  /** The answer as it goes back to the provider (Anthropic: content blocks; OpenAI: output items). */
  echo: unknown[];
  /** OpenAI: the `computer_call` the answer made, answered by a `computer_call_output`; else null. */
  callId: string | null;
  /** Function calls of the answer (OpenAI: `done`, `fail`, an unknown one), each answered by an output. */
  functionCalls: string[];
  results: CallResult[];
  /** The screen after the answer; null when the last result's image shows it. */
  screen: ModelImage | null;
  /** OpenAI: safety checks of the call that a person approved, acknowledged in its output. */
  acknowledge: SafetyCheck[];
  ask: string;
  /** Its screens no longer shown: its calls and their results in words only. */
  collapsed?: boolean;
  /** Anthropic: a prompt-cache breakpoint on its last image or result. */
  mark?: boolean;
}

/**
 * One request to a model: everything a provider needs to build its wire format. Laid out so that
 * only its end changes from one step to the next: instructions and tools, the intro, the timeline
 * (which grows at its end), the current screen, then what is asked. With a batch tool the current
 * screen is the one the conversation starts from, and the exchanges since follow it.
 */
export interface Turn {
  model: string;
  /** The computer-use tool the model takes (config/model-tools.json). */
  tool: ModelTool;
  instructions: string;
  /** The task and the system: the same at every step. */
  intro: string;
  /** The steps so far, oldest first. */
  timeline: TimelineEntry[];
  /** Labelled like a timeline entry's screen, since it becomes one at the next step. */
  current: ModelImage;
  /** Said after the current screen: which step this is, and that the model looked again. */
  ask: string;
  /** Whether to mark a prompt-cache breakpoint at the timeline's end and the current screen. */
  cache: { timeline: boolean; current: boolean };
  /** The size of every image: the display the model answers in. */
  display: Size;
  /** The model's previous answer, when this request continues it (OpenAI). */
  continuation: Continuation | null;
  /** What became of the previous answer's call, said in its output (OpenAI). */
  outcome: { text: string; error: boolean } | null;
  /** Safety checks a person approved: acknowledged to the model in this request (OpenAI). */
  acknowledge: SafetyCheck[];
  /** The batch tools: the model's answers since the conversation's start, each with its results. */
  exchanges: Exchange[];
  maxOutputTokens: number;
}

/**
 * What the model chose, before Warden's own checks. Coordinates are in the model's space; the
 * planner maps them to the screen's.
 */
export type Move =
  /** An action in Warden's vocabulary (docs/rules.md). */
  | { kind: 'action'; action: Record<string, unknown> }
  /** Look again: `screenshot`. */
  | { kind: 'look' }
  /** A region of the screen at its native resolution (the toolset's `zoom`): `[x0, y0, x1, y1]`. */
  | { kind: 'zoom'; region: number[] }
  /**
   * Not an action Warden has, or no action at all. `answer` goes to the engine, which refuses it
   * as an invalid action; `note` is what the model is told.
   */
  | { kind: 'refused'; answer: Record<string, unknown>; note: string };

/** One call of a model's answer, in order: a batch tool's answer may hold several. */
export interface AnswerCall {
  /** The provider's id of the call (Anthropic's `tool_use` id); null where there is none. */
  id: string | null;
  /** A member of Anthropic's computer toolset. */
  toolset: boolean;
  move: Move;
}

export interface ProviderAnswer {
  /** The answer's one move (a batch tool's: its first call's). */
  move: Move;
  /** Every call of the answer, in order (the tools without batches: the one move). */
  calls: AnswerCall[];
  /** The answer as it goes back to the provider in the next request (batch tools). */
  echo: unknown[];
  /** OpenAI: the id of the answer's `computer_call`; null: none. */
  callId: string | null;
  /** OpenAI: the ids of the answer's function calls. */
  functionCalls: string[];
  /** null where the provider did not say: unknown, never zero. */
  usage: Usage;
  continuation: Continuation | null;
  safetyChecks: SafetyCheck[];
  /** The answer as the transcript keeps it. */
  record: Record<string, unknown>;
}

export interface SendOptions {
  apiKey: string;
  /** null: the provider's own endpoint. */
  baseURL: string | null;
  timeoutMs: number;
  signal: AbortSignal;
}

/** One provider's wire format, through its official SDK. */
export interface Provider {
  readonly name: ModelProvider;
  /** The request body (the SDK's parameters), images inline as base64. */
  request(turn: Turn): Record<string, unknown>;
  /** One HTTP call, no retries of its own. Throws the SDK's errors. */
  send(body: Record<string, unknown>, options: SendOptions): Promise<unknown>;
  /** Reads an answer; never throws, whatever the provider sent. */
  read(raw: unknown): ProviderAnswer;
}

/** Warden's actions, named once for every provider's "not supported" note. */
export const WARDEN_ACTIONS_NOTE =
  'Warden performs only these: a left click, a double click, typing text, one key (navigation or commit keys), scrolling, waiting, and looking again (and zooming, with the computer toolset); finish with done or fail';

/** Reads a field as a non-empty string, else null. */
export function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A non-negative integer token count, else null (unknown). */
export function tokens(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON text's value, or null when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Bounded text of something the model said, for a refused answer's record. */
export function excerpt(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
