/**
 * The engine's pure decisions, apart from the I/O that feeds them (STYLE: a long process is a
 * pipeline of small parts, its decisions plain functions beside them).
 */
import type { Change, Loosening, Verdict } from '../actions';
import type { ProviderSafetyCheck } from '../planner-contract/planner';
import type { EndReason } from '../runs/run-status';
import { isUnfinished, type StepPhase } from '../runs/step-phase';
import type { SendGate } from '../runs/send-gate';

/** The switches an admin holds over an agent (docs/step-flow.md), as the engine reads them. */
export interface Switches {
  enabled: boolean;
  agentConfigured: boolean;
  killSwitch: { engaged: boolean; reason: string | null } | null;
  pause: { paused: boolean; reason: string | null } | null;
}

/** Why the admin's switches forbid the agent to act now (the run stops `killed`), or null. */
export function switchedOff(switches: Switches, agent: string): string | null {
  if (!switches.enabled) return 'computer use is turned off for this tenant';
  if (!switches.agentConfigured) {
    return `agent ${agent} is no longer in the tenant's computer-use config`;
  }
  if (switches.killSwitch?.engaged) return `kill switch engaged: ${switches.killSwitch.reason}`;
  if (switches.pause?.paused) return `the tenant is paused: ${switches.pause.reason}`;
  return null;
}

/**
 * Why an action that was about to be marked `sending` was not (its run goes on as before when
 * null: the run is no longer running, and whoever changed that ended or holds it).
 */
export function refusedToSend(
  gate: SendGate,
  agent: string,
): { reason: EndReason; summary: string } | null {
  if (gate.runStatus !== 'running') return null;
  const off = switchedOff(
    {
      enabled: gate.enabled,
      agentConfigured: gate.agentConfigured,
      killSwitch: { engaged: gate.killEngaged, reason: gate.killReason },
      pause: { paused: gate.paused, reason: gate.pauseReason },
    },
    agent,
  );
  if (off) return { reason: 'killed', summary: off };
  if (!gate.secretGranted) {
    return {
      reason: 'not_granted',
      summary:
        "the screen host's token is no longer granted for the host's origin (npm run cli -- secrets list)",
    };
  }
  if (!gate.approvalSpent) {
    return { reason: 'approval_expired', summary: 'the approval of this write is no longer spent' };
  }
  if (!gate.maskSettled) {
    // Never after StepSending waited for the mask: a send that did not wait is refused, not sent
    // on a comparison that might yet change.
    return {
      reason: 'stale_screen',
      summary: "the write's screen was compared before its volatile mask was settled",
    };
  }
  return null;
}

/**
 * The agent config fields a read rests on when a weakening made it one (docs/security.md), as the step
 * records them and the send checks them: `unlabelled_clicks`, the agent's `navigation_words`, or
 * the whole `screen_rules` list (a rule changed in any way, or a write rule added beside it, may
 * judge the action otherwise). Null: no weakening made it a read.
 */
export function looseningOf(
  loosenedBy: Loosening | undefined,
  agent: {
    unlabelled_clicks: string;
    navigation_words: readonly string[];
    screen_rules: readonly unknown[];
  },
): Record<string, unknown> | null {
  if (!loosenedBy) return null;
  if ('unlabelledClicks' in loosenedBy) return { unlabelled_clicks: agent.unlabelled_clicks };
  if ('navigationWords' in loosenedBy) return { navigation_words: agent.navigation_words };
  return { screen_rules: agent.screen_rules };
}

/** Screen actions: what reaches the host's POST /action. */
export const SCREEN_ACTIONS: ReadonlySet<string> = new Set([
  'click',
  'double_click',
  'type',
  'key',
  'scroll',
]);

/**
 * What a job for step `n` does on a running run: open the next step, carry on with the current
 * one, or nothing (a job for a step long past, or for the next step while the current one is held,
 * approved or sending: the current step's own job goes on to the next when it is done).
 */
export function stepJob(
  run: { stepCount: number; currentPhase: StepPhase | null },
  n: number,
): 'open' | 'current' | 'none' {
  if (n === run.stepCount) return 'current';
  if (n !== run.stepCount + 1) return 'none';
  return run.currentPhase !== null && isUnfinished(run.currentPhase) ? 'none' : 'open';
}

/** Why the run stops before its next step (docs/step-flow.md, (1)), or null when it may go on. */
export function stopBeforeStep(
  run: {
    agent: string;
    stepCount: number;
    maxSteps: number;
    maxSeconds: number;
    activeSeconds: number;
    activeSince: Date | null;
  },
  switches: Switches,
  now: number,
): { reason: EndReason; summary: string } | null {
  const off = switchedOff(switches, run.agent);
  if (off) return { reason: 'killed', summary: off };
  if (run.stepCount >= run.maxSteps) {
    return { reason: 'step_cap', summary: `the run reached its step cap of ${run.maxSteps}` };
  }
  const active =
    run.activeSeconds + (run.activeSince ? (now - run.activeSince.getTime()) / 1000 : 0);
  if (active >= run.maxSeconds) {
    return { reason: 'time_cap', summary: `the run used its ${run.maxSeconds} s of active time` };
  }
  return null;
}

/** What commit-point approval (docs/security.md) made of a write, as `decideWrite` reads it. */
export interface CommitFacts {
  /** The write is an edit to stage. */
  staged: unknown;
  /** Why an edit was not staged. */
  notStaged: string | null;
  /** The change list a held write carries (staged changes, navigation, unexplained ones). */
  changes: readonly Pick<Change, 'kind' | 'read_back_check'>[] | null;
  /** The injection rail's verdict on the step's screen, for a model's step (issue 16 §2). */
  rail?: { verdict: 'clean' | 'suspect' | 'injected' } | null;
  /** Why the rail holds it, for the why. */
  railWhy?: string;
  /** A scripted planner's fallback model chose the action, not the script (docs/models.md). */
  offScript?: boolean;
}

const STAGED = '; staged until the next commit, which is held';
const OFF_SCRIPT =
  "; the script's fallback model chose it, not the script: this agent's writes go without approval only as its script plans them, so a person decides";

/**
 * The why of an action the send gate let go as an unapproved write, not as it was decided: while
 * it was planned the agent's config changed to hold no write, and no longer stages typing (an edit
 * decided as staged) or no longer holds the weakening that made it a read (docs/security.md: a write goes
 * with the authority in force at its send, and its record says which).
 */
export function sentUnapprovedWhy(
  decidedWhy: string | null,
  decided: 'staged' | 'loosened',
): string {
  const why = decidedWhy ?? 'an action';
  if (decided === 'staged') {
    const base = why.endsWith(STAGED) ? why.slice(0, -STAGED.length) : why;
    return `${base}; sent without approval, not staged: while it was planned the agent's config changed to stage no typing and hold no write`;
  }
  return `${why}; sent as a write without approval: while it was planned the agent's config changed, dropping what made it a read, to hold no write`;
}

/**
 * What a held commit's change list says in its why, as the list says it: the staged changes it
 * commits (a navigation line, the order number that only opened the order, is none), and apart
 * from them the fields the application marks changed without a typed edit. Nothing for neither.
 */
export function changesInWhy(changes: readonly Pick<Change, 'kind' | 'read_back_check'>[]): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const unexplained = changes.filter((c) => c.read_back_check === 'unexplained').length;
  const staged = changes.filter(
    (c) => c.kind !== 'navigation' && c.read_back_check !== 'unexplained',
  ).length;
  let why = '';
  if (staged > 0) why += `; it commits ${plural(staged, 'staged change', 'staged changes')}`;
  if (unexplained > 0) {
    why += `; the application marks ${plural(unexplained, 'field', 'fields')} changed without a typed edit`;
  }
  return why;
}

/** Whether a screen action goes now, goes staged, or waits for a person, and why. */
export type WriteDecision =
  | { go: 'send' }
  | { go: 'stage'; why: string }
  | { go: 'hold'; why: string; classification: 'write' };

/**
 * Whether a screen action waits for a person, and why: safety checks a model provider raised hold
 * it whatever the rules say (recorded as a write); a write holds unless the agent's writes need no
 * approval, or it is an edit commit-point approval stages (sent without a person, recorded).
 */
export function decideWrite(
  verdict: Verdict,
  safetyChecks: readonly ProviderSafetyCheck[],
  requireWriteApproval: boolean,
  commit: CommitFacts = { staged: null, notStaged: null, changes: null },
): WriteDecision {
  if (safetyChecks.length > 0 && verdict.action && SCREEN_ACTIONS.has(verdict.action.action)) {
    const codes = safetyChecks.map((c) => c.code ?? c.id).join(', ');
    return {
      go: 'hold',
      why: `the model provider raised safety checks (${codes}), so a person decides; the rules say: ${verdict.why}`,
      classification: 'write',
    };
  }
  // Text on the screen that looks like instructions to the model: whatever the action, a person
  // decides (fail closed), even for an agent whose writes need no approval.
  const screenAction = verdict.action !== null && SCREEN_ACTIONS.has(verdict.action.action);
  if (screenAction && commit.rail && commit.rail.verdict !== 'clean') {
    return {
      go: 'hold',
      why: `${commit.railWhy ?? 'the injection rail flagged this screen'}; the rules say: ${verdict.why}`,
      classification: 'write',
    };
  }
  // An agent whose writes need no approval was let through for its planner as configured: a
  // script. A write its fallback model chose is off the script, so a person decides it.
  if (verdict.classification === 'write' && !requireWriteApproval && commit.offScript) {
    return { go: 'hold', why: `${verdict.why}${OFF_SCRIPT}`, classification: 'write' };
  }
  if (verdict.classification !== 'write' || !requireWriteApproval) return { go: 'send' };
  if (commit.staged) return { go: 'stage', why: `${verdict.why}${STAGED}` };
  let why = verdict.why;
  if (commit.notStaged) why += `; not staged: ${commit.notStaged}`;
  why += changesInWhy(commit.changes ?? []);
  return { go: 'hold', why, classification: 'write' };
}

/**
 * Which planner a stored planner state belongs to: a scripted planner by its id, a model by its
 * provider, model and endpoint, the deployment's default model as such.
 */
export function plannerKey(planner: unknown): string {
  if (planner === null || planner === undefined) return 'default';
  if (typeof planner === 'string') return planner;
  const { provider, model, base_url } = planner as Record<string, unknown>;
  return `model:${JSON.stringify([provider, model, base_url ?? null])}`;
}

/** The state kept with a step's decision: the planner's own, with the planner it belongs to. */
export function keptState(planner: unknown, state: unknown): string {
  return JSON.stringify({ planner: plannerKey(planner), state: state ?? null });
}

/**
 * The state to hand the planner: what it kept after the run's previous step, or null when the
 * agent's planner changed since (docs/step-flow.md: a new planner applies from the next step, from the
 * start) or nothing was kept.
 */
export function stateFor(stored: unknown, planner: unknown): unknown {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return null;
  const kept = stored as { planner?: unknown; state?: unknown };
  return kept.planner === plannerKey(planner) ? (kept.state ?? null) : null;
}
