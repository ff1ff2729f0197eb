/**
 * Script grants (docs/security.md "Weakening"): the weakening that lets an agent's writes act
 * without approval is bound to the content of the script its `planner` names, by the script's
 * SHA-256 (planner-contract/script-sha256.ts), recorded with each config version. Pure.
 */
import { parsePlannerId } from '../../config/planner-id';
import { scriptSha256 } from '../planner-contract/script-sha256';
import type { ComputerUseConfig } from './agent-config';

/**
 * By agent: the SHA-256 of the script granted to it. Only agents whose writes need no approval and
 * whose planner is a script of the tenant that exists have an entry.
 */
export type ScriptGrants = Record<string, string>;

/** An agent whose grant binds a script: its writes need no approval and its `planner` is a script. */
export interface ScriptBound {
  agent: string;
  /** The script's row id (the uuid of `scripted-<uuid>`, lower-case). */
  uuid: string;
}

/** The agents of `config` whose grant binds a script, by name. */
export function scriptBound(config: ComputerUseConfig): ScriptBound[] {
  const bound: ScriptBound[] = [];
  for (const name of Object.keys(config.agents).sort()) {
    const agent = config.agents[name];
    if (agent.require_write_approval !== false) continue;
    const parts = parsePlannerId(agent.planner);
    if (parts?.kind === 'scripted') bound.push({ agent: name, uuid: parts.uuid });
  }
  return bound;
}

/**
 * The grants of `config` with the scripts as they are now (`scripts`: content by row id, live
 * scripts of the tenant only). An agent naming a script that is not there is granted nothing: its
 * runs are refused at start, and no step of it can match.
 */
export function grantsOf(
  config: ComputerUseConfig,
  scripts: ReadonlyMap<string, unknown>,
): ScriptGrants {
  const grants: ScriptGrants = {};
  for (const { agent, uuid } of scriptBound(config)) {
    if (scripts.has(uuid)) grants[agent] = scriptSha256(scripts.get(uuid));
  }
  return grants;
}

/**
 * The grants after the script `uuid` changed to `content` (null: deleted): each agent bound to it
 * gets the new hash, or loses its grant. Agents bound to other scripts keep theirs.
 */
export function regranted(
  config: ComputerUseConfig,
  grants: ScriptGrants,
  uuid: string,
  content: unknown,
): ScriptGrants {
  const next: ScriptGrants = { ...grants };
  for (const bound of scriptBound(config)) {
    if (bound.uuid !== uuid) continue;
    if (content === null) delete next[bound.agent];
    else next[bound.agent] = scriptSha256(content);
  }
  return next;
}

/** The agents bound to the script `uuid` in `config`. */
export function agentsBoundTo(config: ComputerUseConfig, uuid: string): string[] {
  return scriptBound(config)
    .filter((bound) => bound.uuid === uuid)
    .map((bound) => bound.agent);
}

/** Each agent whose grant differs, as the `computer_use.config` event lists it: `script_grants.NAME`. */
export function grantChanges(
  before: ScriptGrants,
  after: ScriptGrants,
): Array<{ path: string; from: string | null; to: string | null }> {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names
    .filter((name) => before[name] !== after[name])
    .map((name) => ({
      path: `script_grants.${name}`,
      from: before[name] ?? null,
      to: after[name] ?? null,
    }));
}
