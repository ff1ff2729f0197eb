/**
 * CPU time per part, from /proc (Linux): the worker process(es), the API, this process (the bench
 * and its sim hosts), the stack database's PostgreSQL backends, and the whole machine (other work
 * included). The load of other work on the machine disturbs these less than the latencies.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ProcessStack } from '../../test/support/process-stack';
import { round1 } from './figures';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) of a process in ms; 0 when it is gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Busy CPU time of the whole machine in ms (every process, other people's work included). */
function machineBusyMs(): number {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const t = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = t[3] + (t[4] ?? 0);
    return ((t.reduce((a, b) => a + b, 0) - idle) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

export interface CpuSnapshot {
  worker: number;
  api: number;
  bench: number;
  /** Per backend process id of the stack's database. */
  postgres: Map<number, number>;
  machine: number;
}

export type CpuPerStep = Record<'worker' | 'api' | 'bench' | 'postgres' | 'machine', number>;

export async function cpuSnapshot(stack: ProcessStack): Promise<CpuSnapshot> {
  const backends = await stack.sql<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
  );
  const own = process.cpuUsage();
  return {
    worker: stack.pids.workers.reduce((sum, pid) => sum + processCpuMs(pid), 0),
    api: processCpuMs(stack.pids.api),
    bench: (own.user + own.system) / 1000,
    postgres: new Map(backends.map((b) => [b.pid, processCpuMs(b.pid)])),
    machine: machineBusyMs(),
  };
}

/** CPU ms per step (or per any other unit), per part, between two snapshots. */
export function cpuPerStep(a: CpuSnapshot, b: CpuSnapshot, steps: number): CpuPerStep {
  const per = (ms: number) => round1(ms / steps);
  // A backend that connected meanwhile counts from zero; one that left is lost (pools keep theirs).
  let postgres = 0;
  for (const [pid, ms] of b.postgres) postgres += ms - (a.postgres.get(pid) ?? 0);
  return {
    worker: per(b.worker - a.worker),
    api: per(b.api - a.api),
    bench: per(b.bench - a.bench),
    postgres: per(postgres),
    machine: per(b.machine - a.machine),
  };
}
