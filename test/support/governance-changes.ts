/**
 * The config changes of the governance property (test/governance/governance-property.e2e-spec.ts): the
 * agent's state a case keeps, and what each random change does to it and whether Warden must
 * judge it a weakening (docs/security.md). Written out as the oracle's own table, not from Warden's code.
 */

/** How the agent's writes wait for a person: each, none, or at the commit (docs/security.md). */
export type Mode = 'every' | 'weakened' | 'commit';

export const CODES = { command_field: { transactions: ['VA02'] } };
/** "Every Enter on these screens navigates, except on the initial one": a read rule, its exception. */
export const ENTER_READ = { title: '^Change Sales Order', keys: { Enter: 'read' } };
export const ENTER_EXCEPTION = {
  title: '^Change Sales Order: Initial Screen$',
  keys: { Enter: 'write' },
};
const SUBJECTS = ['subject:bob', 'subject:carol', 'subject:olga'];
/** Redaction over the whole screen (the approver sees black), and over a name field (1.3%). */
export const WHOLE_SCREEN = { x: 0, y: 0, width: 1280, height: 800 };
export const NAME_FIELD = { x: 300, y: 200, width: 100, height: 100 };

/** The agent as the case set it; a change refused leaves it as it was. */
export interface AgentState {
  mode: Mode;
  fourEyes: boolean;
  /** Title rules, beside the transaction code rule of commit mode. */
  rules: object[];
  approvers: string[];
  /** The agent's own navigation words: `Change` makes VA02's Change button a read. */
  navigation: string[];
  /** The agent's `redact_regions`. */
  redact: object[];
}

/**
 * What a config event changes, and whether Warden must judge it a weakening (docs/security.md): the
 * oracle's own table, written out, not Warden's code. Null: nothing to change in this state.
 */
export function changeOf(
  event: string,
  state: AgentState,
  pick: <T>(items: readonly T[]) => T,
): { to: Partial<AgentState>; weakens: boolean } | null {
  const both = state.rules.includes(ENTER_READ) && state.rules.includes(ENTER_EXCEPTION);
  const approvers = state.approvers;
  switch (event) {
    case 'rules: drop the exception':
      // The read rule alone makes the Enter on the initial screen a read: a write entry is gone.
      return both ? { to: { rules: [ENTER_READ] }, weakens: true } : null;
    case 'rules: restore the exception':
      return state.rules.length === 1
        ? { to: { rules: [ENTER_READ, ENTER_EXCEPTION] }, weakens: false }
        : null;
    case 'rules: reorder':
      // A write wins wherever it stands.
      return both ? { to: { rules: [...state.rules].reverse() }, weakens: false } : null;
    case 'rules: drop all':
      // Removing a write entry counts, even with the read rule it was the exception to.
      return state.rules.length > 0
        ? { to: { rules: [] }, weakens: state.rules.includes(ENTER_EXCEPTION) }
        : null;
    case 'rules: add':
      return state.rules.length === 0
        ? { to: { rules: [ENTER_EXCEPTION, ENTER_READ] }, weakens: true }
        : null;
    case 'navigation: add Change':
      // A button labelled only with it is sent as a read: a weakening.
      return state.navigation.includes('Change')
        ? null
        : { to: { navigation: [...state.navigation, 'Change'] }, weakens: true };
    case 'navigation: remove':
      return state.navigation.length > 0 ? { to: { navigation: [] }, weakens: false } : null;
    case 'approvers: add': {
      const more = SUBJECTS.filter((x) => !approvers.includes(x));
      if (more.length === 0) return null;
      // Where anyone could decide, naming someone narrows it.
      return { to: { approvers: [...approvers, pick(more)] }, weakens: approvers.length > 0 };
    }
    case 'approvers: remove':
      return approvers.length > 1
        ? { to: { approvers: approvers.slice(1) }, weakens: false }
        : null;
    case 'approvers: clear':
      return approvers.length > 0 ? { to: { approvers: [] }, weakens: true } : null;
    case 'approvers: swap': {
      const others = SUBJECTS.filter((x) => !approvers.includes(x));
      if (approvers.length === 0 || others.length === 0) return null;
      return { to: { approvers: [pick(others)] }, weakens: true };
    }
    case 'redact: the whole screen':
      // More of what the approver sees hidden, over 2% of the screen.
      return state.redact.includes(WHOLE_SCREEN)
        ? null
        : { to: { redact: [WHOLE_SCREEN] }, weakens: true };
    case 'redact: a name field':
      // Under 2%, from nothing: an admin's; from the whole screen, hiding less: an admin's too.
      return state.redact.includes(NAME_FIELD)
        ? null
        : { to: { redact: [NAME_FIELD] }, weakens: false };
    case 'redact: nothing':
      return state.redact.length > 0 ? { to: { redact: [] }, weakens: false } : null;
    default:
      return null;
  }
}
