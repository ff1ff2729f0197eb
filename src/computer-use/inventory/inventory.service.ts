import { Injectable } from '@nestjs/common';
import { SettingsService } from '../settings/settings.service';
import { plannerView, runWindow, writeApproval } from './inventory-stats';
import { InventoryRepository } from './inventory.repository';
import type { InventoryView } from './inventory.view';

/** Every agent of a tenant's config in force, with its last run, success rates and approval latency. */
@Injectable()
export class InventoryService {
  constructor(
    private readonly settings: SettingsService,
    private readonly inventory: InventoryRepository,
  ) {}

  async view(tenant: string): Promise<InventoryView> {
    const current = await this.settings.current(tenant);
    if (!current) return { enabled: false, config_version: 0, agents: [] };
    const names = Object.keys(current.config.agents).sort();
    const [lastRuns, counts, latency] = await Promise.all([
      this.inventory.lastRuns(tenant, names),
      this.inventory.runCounts(tenant, names),
      this.inventory.approvalLatency(tenant, names),
    ]);
    const byAgent = <T extends { agent: string }>(rows: T[]) =>
      new Map(rows.map((row) => [row.agent, row]));
    const last = byAgent(lastRuns);
    const count = byAgent(counts);
    const decided = byAgent(latency);
    return {
      enabled: current.config.enabled,
      config_version: current.version,
      agents: names.map((name) => {
        const agent = current.config.agents[name];
        const run = last.get(name);
        const approvals = decided.get(name);
        return {
          agent: name,
          system: agent.system,
          screen_host: agent.screen_url,
          planner: plannerView(agent.planner),
          write_approval: writeApproval(agent),
          last_run: run
            ? {
                id: run.id,
                status: run.status,
                end_reason: run.end_reason,
                ended_at: run.ended_at ? new Date(run.ended_at).toISOString() : null,
              }
            : null,
          runs_7d: runWindow(count.get(name)?.d7),
          runs_30d: runWindow(count.get(name)?.d30),
          approvals_30d: {
            decided: approvals?.decided ?? 0,
            median_seconds_to_decide: approvals?.median_seconds ?? null,
          },
        };
      }),
    };
  }
}
