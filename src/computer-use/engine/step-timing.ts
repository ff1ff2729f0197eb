import { setTimeout as sleep } from 'node:timers/promises';
import type { StepTimingEntry } from '../runs/step.entity';
import type { FrameExpectation, ScreenHost } from '../host-client/screen-host.client';

/**
 * Where one job's time went: waiting on the screen host, on the planner, in deliberate pauses
 * (`wait`, settling, mask samples); the rest is Warden's own overhead. Kept on the step row.
 */
export interface StepTiming {
  job: 'step' | 'approved';
  started: number;
  hostMs: number;
  plannerMs: number;
  pauseMs: number;
}

/** A job's timing, from the moment the job starts (its run is read, the step opened or leased). */
export function startTiming(job: StepTiming['job']): StepTiming {
  return { job, started: performance.now(), hostMs: 0, plannerMs: 0, pauseMs: 0 };
}

/** The timing as the step row keeps it, rounded to 0.01 ms. */
export function timingEntry(t: StepTiming): StepTimingEntry {
  const round = (ms: number) => Math.round(ms * 100) / 100;
  const total = performance.now() - t.started;
  return {
    job: t.job,
    total_ms: round(total),
    host_ms: round(t.hostMs),
    planner_ms: round(t.plannerMs),
    pause_ms: round(t.pauseMs),
    overhead_ms: round(total - t.hostMs - t.plannerMs - t.pauseMs),
  };
}

/** The screen host, with the time spent in each call added to the step's timing. */
export function timedHost(host: ScreenHost, timing: StepTiming): ScreenHost {
  const timed =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      try {
        return await call(...args);
      } finally {
        timing.hostMs += performance.now() - started;
      }
    };
  return {
    url: host.url,
    screenshot: timed((o?: { attempts?: number }) => host.screenshot(o)),
    elements: timed(() => host.elements()),
    act: timed((a, key: string, frame?: FrameExpectation) => host.act(a, key, frame)),
    lookupAction: timed((key: string) => host.lookupAction(key)),
    health: timed(() => host.health()),
    probe: timed(() => host.probe()),
  };
}

/** A deliberate pause (not overhead): a `wait` action, settling, mask samples; ends on shutdown. */
export async function pause(
  ctx: { timing: StepTiming; signal: AbortSignal },
  ms: number,
): Promise<void> {
  const started = performance.now();
  try {
    await sleep(ms, undefined, { signal: ctx.signal });
  } finally {
    ctx.timing.pauseMs += performance.now() - started;
  }
}
