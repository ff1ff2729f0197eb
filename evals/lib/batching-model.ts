/**
 * The batched planner (docs/evals.md): a task's recorded answers served as a model of today's tools
 * would answer them, several actions a turn, in Anthropic's computer toolset. A turn holds the
 * actions up to and including the next Enter (what moves a screen-only system to its next screen),
 * and `done` or `fail` alone. The model reads the results of its last turn in each request and
 * goes on from the first call Warden did not execute (a write held for a person ends a batch; its
 * approval sends it, so the model goes on after it), as a real model would answer again.
 */
import {
  anthropicToolset,
  previousResults,
  type ToolsetCall,
} from '../../test/support/fake-batches';
import { counted, type FakeReply, type Responder } from '../../test/support/fake-provider';
import type { RecordedAnswer } from './task';

/** The model the batched answers are served as (config/model-tools.json: the computer toolset). */
export const BATCHED_MODEL = 'claude-sonnet-5-5';
/** Output tokens a turn is counted with, per action in it. */
const OUTPUT_PER_ACTION = 60;

const ENTER = new Set(['return', 'enter', 'kp_enter']);

/** The recording's answers as toolset calls, in turns. */
export function turnsOf(recorded: readonly RecordedAnswer[]): ToolsetCall[][] {
  const turns: ToolsetCall[][] = [];
  let turn: ToolsetCall[] = [];
  for (const answer of recorded) {
    if (answer.tool === 'done' || answer.tool === 'fail') {
      if (turn.length) turns.push(turn);
      turns.push([{ tool: answer.tool, input: answer.input } as ToolsetCall]);
      turn = [];
      continue;
    }
    const { action, ...input } = answer.input;
    turn.push({ name: action, input } as ToolsetCall);
    const key = action === 'key' && typeof input.text === 'string' ? input.text.toLowerCase() : '';
    if (ENTER.has(key)) {
      turns.push(turn);
      turn = [];
    }
  }
  if (turn.length) turns.push(turn);
  return turns;
}

/**
 * The fake provider's responder: each request answered with the rest of the turn the model is in,
 * after `delayMs` (a real model's latency). The calls of its last answer that Warden executed
 * (their results are no errors, up to the first that is) are done; the model goes on from there.
 */
export function batchingModel(recorded: readonly RecordedAnswer[], delayMs = 0): Responder {
  const turns = turnsOf(recorded);
  const flat = turns.flat();
  const turnEnds = turns.map((_, i) => turns.slice(0, i + 1).flat().length);
  let cursor = 0;
  let lastAnswered = 0;
  return async (request): Promise<FakeReply> => {
    const results = previousResults(request);
    const executed = results.findIndex((r) => r.error);
    cursor += executed < 0 ? Math.min(results.length, lastAnswered) : executed;
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (cursor >= flat.length) {
      lastAnswered = 1;
      return anthropicToolset([
        { tool: 'fail', input: { reason: 'the recording has no further answer' } },
      ]);
    }
    const end = turnEnds.find((e) => e > cursor)!;
    const calls = flat.slice(cursor, end);
    lastAnswered = calls.length;
    return anthropicToolset(calls, { usage: counted(OUTPUT_PER_ACTION * calls.length) });
  };
}
