/**
 * The reference planner worker's model request (issue 28 §2): a step's published input
 * (docs/planners.md) turned into the Turn the project's openai-compatible provider sends, and the
 * provider's reading turned into the worker's answer. Pure.
 */
import type { ProviderAnswer, Turn } from '../computer-use/models/provider';

/** The published input, as far as the worker reads it. */
export interface WorkInput {
  task: string;
  system: string | null;
  step: number;
  max_steps: number;
  frame: { id: string; png_sha256: string; width: number; height: number };
  outline: { text: string } | null;
  focused_window: { title: string | null } | null;
  history: Array<{ n: number; action: unknown; outcome: string | null; why: string | null }>;
  last_outcome: string | null;
  image: { media_type: string; base64: string } | null;
}

const INSTRUCTIONS = [
  'You operate a screen-only business application one action at a time for Warden, which checks',
  'every action with its own rules before it is sent and holds every write for a person.',
  'Answer with exactly one JSON object with an "action": click or double_click {x, y, target},',
  'type {text}, key {key}, scroll {x, y, direction, amount}, wait {seconds}, done {summary} or',
  'fail {reason}. Coordinates are screen pixels of the frame you are given.',
].join(' ');

const MAX_OUTPUT_TOKENS = 1024;

/** The request for one step; without the image, the outline text stands for the screen. */
export function turnOf(input: WorkInput, model: string): { turn: Turn; withImage: boolean } {
  const png = input.image ? Buffer.from(input.image.base64, 'base64') : Buffer.alloc(0);
  const window = input.focused_window?.title ? `Window: ${input.focused_window.title}\n` : '';
  return {
    withImage: input.image !== null,
    turn: {
      model,
      tool: 'json',
      instructions: INSTRUCTIONS,
      intro: `Task: ${input.task}\nSystem: ${input.system ?? 'unknown'}`,
      timeline: input.history.map((h) => ({
        screen: null,
        line: `${h.n}. ${JSON.stringify(h.action)}: ${h.outcome ?? 'unknown'}${h.why ? ` (${h.why})` : ''}`,
      })),
      current: { png, sha256: input.frame.png_sha256, label: `The screen at step ${input.step}:` },
      ask: [
        `${window}Screen outline (role "name" = "value"):`,
        input.outline?.text ?? '(the screen host serves no outline)',
        `This is step ${input.step} of at most ${input.max_steps}; the screen is ${input.frame.width}×${input.frame.height}.`,
        'Answer with one action as JSON.',
      ].join('\n'),
      cache: { timeline: false, current: false },
      display: { width: input.frame.width, height: input.frame.height },
      continuation: null,
      outcome: null,
      acknowledge: [],
      exchanges: [],
      maxOutputTokens: MAX_OUTPUT_TOKENS,
    },
  };
}

/** The request body without its image parts (a family without pixels has no screenshot). */
export function withoutImages(body: Record<string, unknown>): Record<string, unknown> {
  const messages = (body.messages as Array<{ role: string; content: unknown }>).map((m) =>
    Array.isArray(m.content)
      ? {
          ...m,
          content: (m.content as Array<{ type?: string }>).filter((p) => p.type !== 'image_url'),
        }
      : m,
  );
  return { ...body, messages };
}

/**
 * The worker's answer: the model's action as the decision; an answer that is no action is sent
 * as it is, for Warden to refuse as an invalid action (and tell the model at the next step).
 */
export function answerOf(read: ProviderAnswer): { decision: unknown } {
  if (read.move.kind === 'action') return { decision: read.move.action };
  if (read.move.kind === 'refused') return { decision: read.move.answer };
  return { decision: { action: 'screenshot' } };
}
