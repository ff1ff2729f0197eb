import { canonicalJson } from '../../audit/canonical-json';
import type { AgentConfig, ComputerUseConfig } from './agent-config';

/** One changed value: `agents.sap-orders.max_steps` 20 → 30. A whole agent added or removed is one change. */
export interface ConfigChange {
  path: string;
  from: unknown;
  to: unknown;
}

/** What a new version changed, as the `computer_use.config` audit event records it. */
export interface ConfigDiff {
  agents_added: string[];
  agents_removed: string[];
  agents_changed: string[];
  changes: ConfigChange[];
}

const NOTHING: ComputerUseConfig = { enabled: false, agents: {} };

/** Differences between two normalised configs; `before` null is the state before any version. */
export function diffConfigs(
  before: ComputerUseConfig | null,
  after: ComputerUseConfig,
): ConfigDiff {
  const old = before ?? NOTHING;
  const diff: ConfigDiff = {
    agents_added: [],
    agents_removed: [],
    agents_changed: [],
    changes: [],
  };
  if (old.enabled !== after.enabled) {
    diff.changes.push({ path: 'enabled', from: old.enabled, to: after.enabled });
  }
  const names = [...new Set([...Object.keys(old.agents), ...Object.keys(after.agents)])].sort();
  for (const name of names) {
    const a = old.agents[name];
    const b = after.agents[name];
    if (!a) {
      diff.agents_added.push(name);
      diff.changes.push({ path: `agents.${name}`, from: null, to: b });
    } else if (!b) {
      diff.agents_removed.push(name);
      diff.changes.push({ path: `agents.${name}`, from: a, to: null });
    } else {
      const fields = agentChanges(name, a, b);
      if (fields.length > 0) {
        diff.agents_changed.push(name);
        diff.changes.push(...fields);
      }
    }
  }
  return diff;
}

function agentChanges(name: string, a: AgentConfig, b: AgentConfig): ConfigChange[] {
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort() as Array<
    keyof AgentConfig
  >;
  return fields
    .filter((f) => canonicalJson(a[f] ?? null) !== canonicalJson(b[f] ?? null))
    .map((f) => ({ path: `agents.${name}.${f}`, from: a[f] ?? null, to: b[f] ?? null }));
}
