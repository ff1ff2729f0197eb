import type { ModelProvider } from '../settings/agent-config';
import type { Conversation } from './conversation';
import type { Continuation } from './provider';

/** Notes on earlier steps kept in the planner's state. */
const MAX_NOTES = 40;

/** What a model planner keeps between the steps of a run (in `runs.planner_state`). */
export interface ModelPlannerState {
  provider: ModelProvider;
  /** The step whose answer `continuation` is. */
  step: number;
  continuation: Continuation | null;
  /** What Warden told the model about earlier steps, by step number (model coordinates). */
  notes: Record<string, string>;
  /** A batch tool's conversation: the model's answers since its start and what became of them. */
  conversation?: Conversation | null;
}

/** The state as stored, when it is this provider's and well formed; null starts afresh. */
export function readState(raw: unknown, provider: ModelProvider): ModelPlannerState | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const s = raw as Partial<ModelPlannerState>;
  if (s.provider !== provider || !Number.isSafeInteger(s.step)) return null;
  const notes = typeof s.notes === 'object' && s.notes !== null ? s.notes : {};
  // Only OpenAI's answers are continued (an Anthropic one stored before issue 18 is not).
  const continuation =
    provider === 'openai' &&
    typeof s.continuation === 'object' &&
    s.continuation?.provider === provider
      ? s.continuation
      : null;
  return { provider, step: s.step!, continuation, notes, conversation: s.conversation ?? null };
}

/** The newest MAX_NOTES notes, by step number. */
export function trimNotes(notes: Record<string, string>): Record<string, string> {
  const keys = Object.keys(notes)
    .map(Number)
    .sort((a, b) => a - b);
  return Object.fromEntries(keys.slice(-MAX_NOTES).map((k) => [String(k), notes[String(k)]]));
}
