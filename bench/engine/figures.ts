/** The bench's arithmetic: percentiles, rates, the machine's load average. */
import { loadavg } from 'node:os';

export interface Percentiles {
  n: number;
  p50: number | null;
  p99: number | null;
}

/** One decimal. */
export const round1 = (v: number) => Math.round(v * 10) / 10;

export function percentiles(values: number[]): Percentiles {
  if (values.length === 0) return { n: 0, p50: null, p99: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return { n: sorted.length, p50: round1(at(0.5)), p99: round1(at(0.99)) };
}

/** Steps per second over a wall clock of `ms`. */
export const perSecond = (steps: number, ms: number) => round1((steps / ms) * 1000);

/** The load averages (1, 5, 15 min), two decimals. */
export const loads = () => loadavg().map((l) => Math.round(l * 100) / 100);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
