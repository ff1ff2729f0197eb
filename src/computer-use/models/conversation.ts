/**
 * A batch tool's conversation with the model (docs/models.md, "Batches"): each answer (a turn) may
 * hold several calls; each action is its own step, taken in order, and a refusal, a hold, a stop
 * or a cap ends the batch, every call after it answered "not executed" with the reason when the
 * model is next asked. What the planner keeps of it between steps (`runs.planner_state`), and the
 * decisions on it. Pure.
 */
import type { StepHistory } from '../planner-contract/planner';
import type { TargetSeen } from '../planner-contract/batch-target';
import { describeStep } from './prompt';
import type { SafetyCheck } from './provider';
import type { ScreenScale } from './scaling';

/** One call of a turn and what became of it. */
export interface ItemRecord {
  /** The call's id (Anthropic's `tool_use` id; OpenAI's function call id), or null. */
  id: string | null;
  /** A member of Anthropic's computer toolset. */
  toolset: boolean;
  /** `action`: a step (an action of the vocabulary, or an answer Warden refuses); a look or a zoom: no step. */
  kind: 'action' | 'look' | 'zoom';
  /** The action in the screen's coordinates, or the refused answer; a zoom's region (screen pixels). */
  answer: Record<string, unknown>;
  /** What the model is told about it beyond its outcome (why it was refused on reading). */
  note: string | null;
  /** What the screen the model decided on showed where it lands (every call after the first). */
  seen: TargetSeen | null;
  /** The step it was taken at. */
  step?: number;
  /** A look's or a zoom's screen (SHA-256), as it was when it was answered. */
  screen?: string;
  /** That screen's coordinate space (a zoom's region is in it). */
  space?: { width: number; height: number };
  /** Why it was not executed. */
  notExecuted?: string;
}

/** One answer of the model: a batch. */
export interface TurnRecord {
  /** The batch's id, recorded with each of its steps (`steps.batch`). */
  id: string;
  /** The step at which the model was asked. */
  step: number;
  /** SHA-256 of the screen the model decided on. */
  screen: string;
  /** The answer as it goes back to the provider. */
  echo: unknown[];
  /** OpenAI: the computer call, answered by its output; its function calls. */
  callId: string | null;
  functionCalls: string[];
  /** OpenAI: the call's safety checks, acknowledged once a person approved its action. */
  checks: SafetyCheck[];
  items: ItemRecord[];
  /** The index of the next call to take. */
  next: number;
  /** When the model was next asked: at which step, and the screen shown then (null: a look's). */
  after?: { step: number; screen: string | null };
  /** Its screens are no longer shown: it stays in the conversation as its calls and results in words. */
  collapsed?: boolean;
}

/** The conversation since its start (a screen the model was shown), and its answers since. */
export interface Conversation {
  base: { step: number; screen: string };
  turns: TurnRecord[];
}

/** The most calls of one answer Warden takes; the rest are answered "not executed". */
export const MAX_BATCH = 16;

/** Outcomes after which a batch goes on with its next action. */
const GOES_ON = new Set(['sent', 'staged']);

/** The conversation as stored, when it is well formed; null starts afresh. */
export function readConversation(raw: unknown): Conversation | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const c = raw as Partial<Conversation>;
  const base = c.base;
  if (
    !base ||
    !Number.isSafeInteger(base.step) ||
    typeof base.screen !== 'string' ||
    !Array.isArray(c.turns)
  ) {
    return null;
  }
  const wellFormed = c.turns.every(
    (t) =>
      typeof t?.id === 'string' &&
      Number.isSafeInteger(t.step) &&
      typeof t.screen === 'string' &&
      Array.isArray(t.echo) &&
      Array.isArray(t.items) &&
      Number.isSafeInteger(t.next),
  );
  return wellFormed ? (c as Conversation) : null;
}

/** Ordinal place of a call in its turn (1-based), as the model and the record say it. */
export function placeOf(turn: TurnRecord, item: ItemRecord): number {
  return turn.items.indexOf(item) + 1;
}

/**
 * Whether the batch goes on with its next call at this step: the action taken last was sent (or
 * staged) and is the run's last step. Otherwise why it ends, for the calls left.
 */
export function batchGoesOn(
  turn: TurnRecord,
  history: readonly StepHistory[],
): { goes: true } | { goes: false; reason: string } {
  const taken = turn.items
    .slice(0, turn.next)
    .filter((i) => i.step !== undefined)
    .at(-1);
  if (!taken) return { goes: true };
  const place = placeOf(turn, taken);
  const last = history.at(-1);
  if (!last || last.n !== taken.step) {
    return { goes: false, reason: `the batch was interrupted after call ${place}` };
  }
  if (GOES_ON.has(last.outcome ?? '')) return { goes: true };
  return { goes: false, reason: endedBy(last, place) };
}

function endedBy(h: StepHistory, place: number): string {
  switch (h.outcome) {
    case 'held':
    case 'sent_after_approval':
      return `call ${place} was a write held for a person's approval, and a batch ends at a held write`;
    case 'refused':
      return `Warden refused call ${place}, and a batch ends at a refused action`;
    case 'screen_changed':
      return `call ${place} was not sent (${h.error ?? 'the screen changed'}), and the batch stopped there`;
    case 'refused_by_application':
      return `the application refused call ${place}`;
    default:
      return `the batch ended at call ${place}`;
  }
}

/** Every call of the turn from `from` on is not executed, for `reason`. */
export function endBatch(turn: TurnRecord, reason: string, from = turn.next): void {
  for (const item of turn.items.slice(from)) item.notExecuted ??= reason;
  turn.next = turn.items.length;
}

/**
 * How many earlier screens the conversation shows (besides the current one): its start's, and of
 * each answer not collapsed, every look's and zoom's and the screen after it (but the last's).
 */
export function earlierScreens(conversation: Conversation): number {
  let count = 1;
  conversation.turns.forEach((t, i) => {
    if (t.collapsed) return;
    count += t.items.filter((item) => item.screen !== undefined).length;
    if (i < conversation.turns.length - 1 && t.after?.screen) count++;
  });
  return count;
}

/**
 * Keeps the conversation within `historyScreens` earlier screens: where it would show more, every
 * answer but the last is collapsed (its screens no longer shown, its calls and results kept in
 * words). All at once rather than one answer a step, and never the conversation's start: a request
 * stays the one before it plus its end, up to the first answer collapsed now, so that the
 * provider's prompt cache reads that much. The screen the conversation starts from and the one the
 * last answer was decided on are always shown. True when answers were collapsed now.
 */
export function collapseOld(conversation: Conversation, historyScreens: number): boolean {
  if (earlierScreens(conversation) <= Math.max(1, historyScreens)) return false;
  for (const t of conversation.turns.slice(0, -1)) t.collapsed = true;
  return true;
}

/** A result before its image is loaded: the screen (and region) it shows. */
export interface PendingResult {
  id: string | null;
  toolset: boolean;
  text: string;
  error: boolean;
  image?: { screen: string; region?: Record<string, unknown> };
}

/** Sent, staged, approved and sent, or sent and refused by the application: it was done. */
const DONE = new Set(['sent', 'staged', 'sent_after_approval', 'refused_by_application']);

/**
 * What became of each call of a turn, as the model is told (in the provider's format): each action
 * as its line of the timeline (the step, the action in the model's coordinates, read or write, its
 * outcome), a look's or a zoom's screen, or why it was not executed.
 */
export function resultsOf(
  turn: TurnRecord,
  history: readonly StepHistory[],
  scale: ScreenScale,
): PendingResult[] {
  return turn.items.map((item, i): PendingResult => {
    const base = { id: item.id, toolset: item.toolset };
    const place = i + 1;
    if (item.notExecuted !== undefined) {
      return { ...base, text: `Call ${place}: not executed: ${item.notExecuted}.`, error: true };
    }
    if (item.kind !== 'action') {
      if (item.screen === undefined) {
        return { ...base, text: `Call ${place}: not executed.`, error: true };
      }
      const text =
        item.kind === 'look'
          ? `Call ${place}: the screen as it was at that moment.`
          : `Call ${place}: the region at the screen's own resolution, as it was at that moment.`;
      return {
        ...base,
        text,
        error: false,
        image: {
          screen: item.screen,
          ...(item.kind === 'zoom'
            ? { region: item.answer.region as Record<string, unknown> }
            : {}),
        },
      };
    }
    const h = history.find((s) => s.n === item.step);
    if (!h) return { ...base, text: `Call ${place}: not executed.`, error: true };
    const line = describeStep(h, scale, item.note ?? undefined);
    return { ...base, text: `Call ${place}: step ${line}`, error: !DONE.has(h.outcome ?? '') };
  });
}
