import type { AgentConfig, PlannerConfig } from '../settings/agent-config';
import type { RunCounts } from './inventory.repository';

/** What an agent plans with, without anything secret (a key's variable name stays out too). */
export type PlannerView =
  | { kind: 'scripted'; id: string }
  /** Another planner of the catalog named by its id (docs/models.md): the navigator, a model's id. */
  | { kind: 'catalog'; id: string }
  | { kind: 'model'; provider: string; model: string }
  | { kind: 'default' };

export interface RunWindowView extends RunCounts {
  /** completed / ended, 0–1; null when no run of the window has ended. */
  success_rate: number | null;
}

/** The share of ended runs that completed; null when none ended (no rate, rather than 0). */
export function successRate(completed: number, ended: number): number | null {
  if (ended <= 0) return null;
  return Math.round((completed / ended) * 10_000) / 10_000;
}

export function runWindow(counts: RunCounts | undefined): RunWindowView {
  const c = counts ?? { runs: 0, ended: 0, completed: 0 };
  return { ...c, success_rate: successRate(c.completed, c.ended) };
}

export function plannerView(planner: PlannerConfig | null): PlannerView {
  if (planner === null) return { kind: 'default' };
  if (typeof planner === 'string') {
    return planner.startsWith('scripted-')
      ? { kind: 'scripted', id: planner }
      : { kind: 'catalog', id: planner };
  }
  return { kind: 'model', provider: planner.provider, model: planner.model };
}

/** How the agent's writes wait for a person (docs/security.md). */
export function writeApproval(agent: AgentConfig): {
  require_write_approval: boolean;
  approve_at: AgentConfig['approve_at'];
} {
  return { require_write_approval: agent.require_write_approval, approve_at: agent.approve_at };
}
