import type { ApproveAt } from '../settings/agent-config';
import type { PlannerView, RunWindowView } from './inventory-stats';

export interface LastRunView {
  id: string;
  status: string;
  end_reason: string | null;
  ended_at: string | null;
}

/** One agent of the tenant's config in force, with how it has been doing (docs/api.md). */
export interface InventoryAgentView {
  agent: string;
  system: string | null;
  /** The screen host's URL (`screen_url`). */
  screen_host: string;
  planner: PlannerView;
  write_approval: { require_write_approval: boolean; approve_at: ApproveAt };
  last_run: LastRunView | null;
  /** Runs started in the last 7 days: how many, ended, completed, and completed / ended. */
  runs_7d: RunWindowView;
  runs_30d: RunWindowView;
  /** Approvals decided by a person in the last 30 days, and the median seconds from held to decided. */
  approvals_30d: { decided: number; median_seconds_to_decide: number | null };
}

export interface InventoryView {
  enabled: boolean;
  /** The config version the agents come from; 0 before the first PUT. */
  config_version: number;
  agents: InventoryAgentView[];
}
