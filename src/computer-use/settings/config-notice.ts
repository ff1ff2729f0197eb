import type { ComputerUseConfig } from './agent-config';
import { typedAsBefore } from './approver-fields';

/**
 * What Warden tells the admin about a config version it wrote itself (GET
 * `/api/admin/computer-use` answers the notices of the version in force, `notices`): today only
 * that an upgrade typed the entries of `approvers` and `escalate_to` (docs/security.md, approver
 * groups). Pure.
 */
export interface ConfigNotice {
  code: 'approvers_typed';
  message: string;
  /** Each list rewritten: `agents.NAME.approvers` from → to. */
  changes: Array<{ path: string; from: string[]; to: string[] }>;
}

export const APPROVERS_TYPED_MESSAGE =
  'approvers and escalate_to entries were untyped: each name matched a group of the identity provider, a token subject and a person subject alike, so each was rewritten as both "group:NAME" and "subject:NAME", and nobody gained or lost approval power. Remove the entry that does not apply (narrowing needs no governance.weaken): a group\'s name as a subject, or a person\'s as a group';

/**
 * The config with every entry of `approvers` and `escalate_to` typed as it was matched before
 * entries were typed (both `group:` and `subject:`), and the notice that says so; null when no
 * agent lists anyone. Every entry is read as untyped: before this, none was typed (a name that
 * looks typed, `group:x`, was a name like any other, and stays one: `group:group:x`).
 */
export function typeApprovers(
  config: ComputerUseConfig,
): { config: ComputerUseConfig; notice: ConfigNotice } | null {
  const changes: ConfigNotice['changes'] = [];
  const agents: ComputerUseConfig['agents'] = {};
  for (const [name, agent] of Object.entries(config.agents)) {
    const typed = { ...agent };
    for (const field of ['approvers', 'escalate_to'] as const) {
      const from = agent[field] ?? [];
      if (from.length === 0) continue;
      typed[field] = from.flatMap(typedAsBefore);
      changes.push({ path: `agents.${name}.${field}`, from, to: typed[field] });
    }
    agents[name] = typed;
  }
  if (changes.length === 0) return null;
  return {
    config: { ...config, agents },
    notice: { code: 'approvers_typed', message: APPROVERS_TYPED_MESSAGE, changes },
  };
}
