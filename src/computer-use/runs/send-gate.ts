/**
 * The send gate (docs/step-flow.md): everything that may forbid sending an action, read as one row in the
 * statement that marks the action `sending` (SendGateRepository.markSending, sendGate).
 */
import { grantedSql } from '../../secrets/secret-grants.repository';
import { GOVERNANCE_COLUMNS, GOVERNANCE_JOINS } from '../settings/settings.repository';
import type { RunStatus } from './run-status';

/**
 * What was true, in the statement that would mark an action `sending`, of everything that may
 * forbid sending it (docs/step-flow.md): the run's status, computer use on, the agent still configured, its
 * kill switch, the tenant's pause, and for an approved write whether its approval is spent.
 */
export interface SendGate {
  runStatus: RunStatus;
  enabled: boolean;
  agentConfigured: boolean;
  killEngaged: boolean;
  killReason: string | null;
  paused: boolean;
  pauseReason: string | null;
  approvalSpent: boolean;
  /**
   * For an approved write: the volatile mask its screen is compared with is settled, learnt or
   * given up, never still being learnt (docs/security.md). True for anything else.
   */
  maskSettled: boolean;
  /**
   * The agent's config in force holds its writes for a person, or the step was not planned by the
   * script content granted to it (`scriptAsGranted` false): either way a person decides.
   */
  writesNeedApproval: boolean;
  /**
   * False only when the agent's config in force lets its writes go without approval and the step
   * was not planned by the script content it grants (docs/security.md "Weakening"): no script
   * granted and none planned, or the same one, is as granted.
   */
  scriptAsGranted: boolean;
  /** The agent's config in force stages typing until the commit (`approve_at: "commit"`). */
  stagesTyping: boolean;
  /** The secret the step's requests carry is still granted for their destination (docs/screen-host.md). */
  secretGranted: boolean;
  /**
   * The weakening that made the step's action a read (`steps.loosened_by`) is in the agent's
   * config in force as it was (true when none did).
   */
  looseningInForce: boolean;
}

/** The secret a step's host requests carry: checked with the send (docs/step-flow.md, docs/screen-host.md). */
export interface SentSecret {
  envName: string;
  origin: string;
}

export interface GateRow {
  run_status: RunStatus;
  enabled: boolean;
  agent_configured: boolean;
  kill_engaged: boolean;
  kill_reason: string | null;
  paused: boolean;
  pause_reason: string | null;
  approval_spent: boolean;
  mask_settled: boolean;
  writes_need_approval: boolean;
  script_as_granted: boolean;
  stages_typing: boolean;
  secret_granted: boolean;
  loosening_in_force: boolean;
}

/**
 * The send gate (docs/step-flow.md) of the step, run and secret given as parameters, as one row.
 * `looseningParam` is the step's loosening (jsonb, or null): every field it names must hold the same
 * value in the agent's config in force. `plannedParam` is the content hash of the script that
 * planned the step (text, or null: no script); `script_as_granted` says whether it is the one the
 * config in force grants the agent.
 */
export function gateSql(
  approved: boolean,
  params: {
    step: string;
    run: string;
    env: string;
    origin: string;
    loosening: string;
    planned: string;
  },
): string {
  const { step: stepParam, run: runParam, env: envParam, origin: originParam } = params;
  const looseningParam = params.loosening;
  const spent = approved
    ? `EXISTS (SELECT 1 FROM approvals a WHERE a.step_id = ${stepParam} AND a.status = 'spent')`
    : 'true';
  const settled = approved
    ? `NOT EXISTS (SELECT 1 FROM approvals a WHERE a.step_id = ${stepParam} AND a.mask_state = 'learning')`
    : 'true';
  return `SELECT r.status AS run_status, ${GOVERNANCE_COLUMNS}, ${spent} AS approval_spent,
                 ${settled} AS mask_settled,
                 ${params.planned}::text IS NOT DISTINCT FROM v.granted_script_sha256 AS script_as_granted,
                 ${grantedSql(envParam, originParam)} AS secret_granted,
                 NOT EXISTS (SELECT 1 FROM jsonb_each(COALESCE(${looseningParam}::jsonb, '{}'::jsonb)) e
                              WHERE v.agent_config->e.key IS DISTINCT FROM e.value) AS loosening_in_force
            FROM runs r ${GOVERNANCE_JOINS}
           WHERE r.id = ${runParam}`;
}

export function toGate(row: GateRow): SendGate {
  const ungranted = !row.writes_need_approval && !row.script_as_granted;
  return {
    runStatus: row.run_status,
    enabled: row.enabled,
    agentConfigured: row.agent_configured,
    killEngaged: row.kill_engaged,
    killReason: row.kill_reason,
    paused: row.paused,
    pauseReason: row.pause_reason,
    approvalSpent: row.approval_spent,
    maskSettled: row.mask_settled,
    writesNeedApproval: row.writes_need_approval || ungranted,
    scriptAsGranted: !ungranted,
    stagesTyping: row.stages_typing,
    secretGranted: row.secret_granted,
    looseningInForce: row.loosening_in_force,
  };
}
