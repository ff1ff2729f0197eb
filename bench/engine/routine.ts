/**
 * routine: the VA02 change planned by a model (the eval's recorded answers, served by a fake
 * provider `delay` after each call, as a real model answers) against the same change replayed from
 * the routine saved of that run, with no model call. Both on a stack of their own (the eval's:
 * the fake model must be granted before the processes start), through the eval's parts
 * (evals/lib/routine.ts); the figure is each run's active time (without approval waits) and their
 * ratio. Held writes are approved as soon as they are seen, as the eval does.
 */
import {
  REPLAYS,
  rowOf,
  saveRoutine,
  SOURCE,
  variant,
  type RoutineRow,
} from '../../evals/lib/routine';
import { runOnce, selectTasks, startEvalStack } from '../../evals/lib/runner';
import { loads, round1 } from './figures';

export interface RoutineResult {
  scenario: 'routine';
  model_delay_ms: number;
  model: RoutineRow;
  replay: RoutineRow;
  /** The model's run's active time over the replay's. */
  ratio: number | null;
  load_average: { before: number[]; after: number[] };
  anomalies: string[];
}

export async function routine(
  log: (line: string) => void,
  modelDelayMs: number,
): Promise<RoutineResult> {
  const [task] = selectTasks({ suite: 'sim', only: ['va02-change-date'] });
  const before = loads();
  const stack = await startEvalStack(log, 'sim', [], modelDelayMs);
  try {
    const options = { log: (line: string) => log(`routine: ${line.trim()}`) };
    const planned = await runOnce(stack, task, 'recorded', 1, options);
    const model = rowOf('model (recorded)', SOURCE.order, SOURCE.date, planned);
    if (!planned.run_id || planned.status !== 'completed') {
      throw new Error(`the model's run did not complete: ${planned.status} ${planned.error ?? ''}`);
    }
    const script = await saveRoutine(stack, task, planned.run_id);
    const { order, date } = REPLAYS[0];
    const replayed = await runOnce(stack, variant(task, order, date), 'scripted', 1, options, {
      planner: script.id,
      params: { order, date },
    });
    const replay = rowOf('replay', order, date, replayed);
    const anomalies = [model, replay].flatMap((r) =>
      r.success && r.unapproved_writes === 0
        ? []
        : [`${r.run}: ${r.status}, ${r.unapproved_writes} unapproved; ${r.failures.join('; ')}`],
    );
    if (replay.model_calls > 0)
      anomalies.push(`the replay asked the model ${replay.model_calls} times`);
    return {
      scenario: 'routine',
      model_delay_ms: modelDelayMs,
      model,
      replay,
      ratio:
        replay.active_seconds > 0 ? round1(model.active_seconds / replay.active_seconds) : null,
      load_average: { before, after: loads() },
      anomalies,
    };
  } finally {
    await stack.close();
  }
}
