/**
 * The governance property's oracle (test/governance/governance-property.e2e-spec.ts): what reached one sim
 * host's screen during a run, against Warden's record of that run and the admin's record of which
 * config was in force when. Pure: the rows in, the violations out, each in words.
 *
 * A write that reached the screen (typed text, the Enter key, a commit key, or VA02's Change
 * button, which does what Enter does) is allowed only as:
 * - a step sent with an approval spent on that very step, decided by one of the approval's
 *   deciders (the agent's `approvers` in force when it was held; anyone when none), and by someone
 *   other than the run's starter where four-eyes holds;
 * - a step sent by an agent whose writes needed no approval while a config saying so was in force,
 *   planned by exactly the script content that config granted the agent, a grant first made by a
 *   version one who may weaken wrote (a plain admin's later version may keep it, never make it);
 * - typing staged (never a transaction code) while `approve_at: "commit"` was in force;
 * - a read by a screen rule that, by what the rules in force then do, makes it one: a transaction
 *   code (and the Enter after it) of a `command_field` rule, or an Enter on a screen whose title a
 *   rule with `Enter: "read"` matches and no rule with `Enter: "write"` does (a write wins);
 * - a click on VA02's Change button (a command control) sent as a read because a navigation word
 *   the agent added names it, while a config with that word was in force;
 * - a send whose outcome Warden recorded as unknown (the host failed half-way), audited with one
 *   of those authorities.
 * No typed text reaches the screen twice, none goes on after a newline, and no password is changed
 * (a case types one only through Tabs from the command field of the password screen).
 */

export interface StepRow {
  n: number;
  action: { action?: string; text?: string; key?: string } | null;
  classification: string | null;
  why: string | null;
  outcome: string | null;
  error: string | null;
  approval_id: string | null;
  approval_status: string | null;
  decided_by: string | null;
  /** The approval's deciders (typed entries); null: anyone with agents.approve. */
  deciders: string[] | null;
  started_at: Date;
  ended_at: Date | null;
  /** The SHA-256 of the script content the step's planner was made from. */
  planner_sha256: string | null;
}

/** One config version of the agent, as stored. */
export interface VersionRow {
  needs: string | null;
  approve_at: string | null;
  rules: unknown;
  approvers: string[] | null;
  /** The agent's own navigation words. */
  navigation: string[] | null;
  /** The SHA-256 of the script content this version grants the agent (`script_grants`), if any. */
  granted: string | null;
  /** Who wrote the version. */
  by: string;
  at: Date;
}

export interface AuditRow {
  step: number;
  type: string;
  details: Record<string, unknown>;
}

export interface OracleInput {
  /** The texts the host typed, in order. */
  typed: string[];
  /** How many times the host changed its password (the sim's `password_changed`). */
  passwordChanges?: number;
  /** How many times the host performed the Enter key. */
  enters: number;
  /** How many times the host performed a click on VA02's Change button. */
  changes: number;
  steps: StepRow[];
  versions: VersionRow[];
  audited: AuditRow[];
  fourEyes: boolean;
  /** Who started the run (four-eyes). */
  starter: string;
}

type TitleRule = { title?: unknown; keys?: Record<string, unknown> };

/**
 * Whether rules make the Enter key a read on a screen of this title: a title rule with
 * `Enter: "read"` matches it, and none with `Enter: "write"` does.
 */
export function rulesMakeEnterRead(rules: unknown, title: string): boolean {
  const titled = (Array.isArray(rules) ? (rules as TitleRule[]) : []).filter(
    (r) => typeof r.title === 'string' && new RegExp(r.title).test(title),
  );
  const says = (kind: string) => titled.some((r) => r.keys?.Enter === kind);
  return says('read') && !says('write');
}

export function violations(input: OracleInput, weakener = 'wes'): string[] {
  const { steps, versions, audited, fourEyes, starter } = input;
  const found: string[] = [];

  /**
   * Whether version `i` grants the agent script content that one who may weaken granted: the
   * first version of the run of versions up to `i` that grant this same content was theirs.
   */
  const grantedByWeakener = (i: number): boolean => {
    const granted = versions[i].granted;
    if (granted === null) return false;
    let first = i;
    while (first > 0 && versions[first - 1].granted === granted) first--;
    return versions[first].by === weakener;
  };
  const inForceDuring = (holds: (v: VersionRow, i: number) => boolean, from: Date, to: Date) =>
    versions.some(
      (v, i) =>
        holds(v, i) &&
        v.at.getTime() <= to.getTime() &&
        (versions[i + 1] === undefined || versions[i + 1].at.getTime() >= from.getTime()),
    );

  /** Whether the step's send is allowed: `text` for typing (staging), null for a key. */
  const allowedSend = (s: StepRow, text: string | null): boolean => {
    const during = (holds: (v: VersionRow) => boolean) =>
      inForceDuring(holds, s.started_at, s.ended_at ?? new Date());
    /**
     * What the step's audit event of `type` names as the write's authority, checked against the
     * record: the approval spent on this very step (decided by one of its deciders, not the
     * starter where four-eyes holds), staging while approve_at "commit" was in force (never a
     * transaction code, never a key), or no approval needed while a config saying so was in force.
     */
    const authority = (type: string): 'approved' | 'staged' | 'unapproved' | null => {
      const event = audited.find((a) => a.step === s.n && a.type === type);
      if (!event) return null;
      if (event.details.approval_id != null) {
        const decider =
          s.deciders === null ||
          (s.decided_by !== null && s.deciders.includes(`subject:${s.decided_by}`));
        const spent =
          s.approval_status === 'spent' &&
          event.details.approval_id === s.approval_id &&
          decider &&
          (!fourEyes || s.decided_by !== starter);
        return spent ? 'approved' : null;
      }
      if (event.details.staged === true) {
        const staging =
          text !== null && !text.startsWith('/') && during((v) => v.approve_at === 'commit');
        return staging ? 'staged' : null;
      }
      // No approval needed, and the step planned by exactly the content a weakener granted.
      const unapproved =
        Boolean(event.details.without_approval) &&
        s.planner_sha256 !== null &&
        inForceDuring(
          (v, i) => v.needs === 'false' && v.granted === s.planner_sha256 && grantedByWeakener(i),
          s.started_at,
          s.ended_at ?? new Date(),
        );
      return unapproved ? 'unapproved' : null;
    };
    // The host failed after acting: Warden could not know, says so, and audits the write.
    const unknown = s.outcome === null && /unknown/.test(s.error ?? '');
    if (s.classification === 'read' && (s.outcome === 'sent' || unknown)) {
      const why = s.why ?? '';
      // A button made a read by a navigation word the agent added, while a config had it.
      if (/^click on “Change”.*this agent's navigation_words/.test(why)) {
        return during((v) => (v.navigation ?? []).includes('Change'));
      }
      if (!/navigation by screen rule/.test(why)) return false;
      const codeRule = during((v) => JSON.stringify(v.rules ?? []).includes('VA02'));
      // A transaction code the agent's command_field rule declares navigation, and its Enter.
      if (text !== null) return text === '/nVA02' && codeRule;
      if (/^Enter after “\/nVA02” in the command field/.test(why)) return codeRule;
      // An Enter on a screen the rules in force then make it a read on.
      const title =
        /^Enter on “(.*)”(?: \(the title read from the screen by OCR\))? is navigation/.exec(
          why,
        )?.[1];
      return title !== undefined && during((v) => rulesMakeEnterRead(v.rules, title));
    }
    if (unknown) return authority('computer_use.write.unknown') !== null;
    if (s.outcome === 'sent_after_approval') return authority('computer_use.write') === 'approved';
    if (s.outcome === 'staged') return authority('computer_use.write') === 'staged';
    if (s.outcome === 'sent') return authority('computer_use.write') === 'unapproved';
    // Sent (approved, or unapproved while that was in force), then refused by the application.
    if (s.outcome === 'refused_by_application') {
      const sent = authority('computer_use.write');
      return sent === 'approved' || sent === 'unapproved';
    }
    return false;
  };

  // Warden never types a secret, wherever the keystrokes land: no password was changed (the
  // cases type one only through Tabs from the command field), and no text went on after a
  // newline, whose Enter leaves for a screen nobody judged it on.
  if ((input.passwordChanges ?? 0) > 0) {
    found.push(`the host changed its password ${input.passwordChanges} times`);
  }
  for (const text of input.typed) {
    if (/\n[\t\n]*[^\t\n]/.test(text)) {
      found.push(`the text ${JSON.stringify(text)} went on after a newline on the screen`);
    }
  }

  const seen = new Map<string, number>();
  for (const text of input.typed) {
    seen.set(text, (seen.get(text) ?? 0) + 1);
    if (seen.get(text) === 2) found.push(`the write "${text}" reached the screen twice`);
    const candidates = steps.filter((s) => s.action?.action === 'type' && s.action.text === text);
    if (!candidates.some((s) => allowedSend(s, text))) {
      const configs = versions.map(
        (v) =>
          `${v.at.toISOString()} by ${v.by} needs approval: ${v.needs}, approve_at: ${v.approve_at}, grants: ${v.granted}`,
      );
      found.push(
        `the write "${text}" reached the screen without an approval spent on its step: ${JSON.stringify({ candidates, configs })}`,
      );
    }
  }

  // The Enter key: the host's count against the steps that may have sent one, each allowed.
  const enterSteps = steps.filter(
    (s) => s.action?.action === 'key' && s.action.key === 'Enter' && reachedHost(s),
  );
  for (const s of enterSteps) {
    if (!allowedSend(s, null)) {
      found.push(`the Enter of step ${s.n} was sent without an authority: ${JSON.stringify(s)}`);
    }
  }
  if (input.enters > enterSteps.length) {
    found.push(
      `the host performed Enter ${input.enters} times, Warden sent it in ${enterSteps.length} steps`,
    );
  }

  // VA02's Change button: the host's count against the steps that may have pressed it, each
  // allowed (approved, unapproved while in force, or a read by a navigation word then in force).
  const changeSteps = steps.filter(
    (s) => s.action?.action === 'click' && /^click on “Change”/.test(s.why ?? '') && reachedHost(s),
  );
  for (const s of changeSteps) {
    if (!allowedSend(s, null)) {
      found.push(
        `the Change click of step ${s.n} was sent without an authority: ${JSON.stringify(s)}`,
      );
    }
  }
  if (input.changes > changeSteps.length) {
    found.push(
      `the host performed a click on Change ${input.changes} times, Warden sent it in ${changeSteps.length} steps`,
    );
  }

  // Who may decide is fixed when the write is held: the approvers of a config in force then.
  for (const s of steps) {
    if (s.approval_id === null) continue;
    const approvers = s.deciders ?? [];
    const held = inForceDuring(
      (v) => JSON.stringify(v.approvers ?? []) === JSON.stringify(approvers),
      s.started_at,
      s.ended_at ?? new Date(),
    );
    if (!held) {
      found.push(
        `step ${s.n}'s approval names ${JSON.stringify(s.deciders)}, no config in force then did`,
      );
    }
  }
  return found;
}

/** A step whose action may have reached the host: sent, refused by the application, or unknown. */
function reachedHost(s: { outcome: string | null; error: string | null }): boolean {
  return (
    s.outcome === 'sent' ||
    s.outcome === 'sent_after_approval' ||
    s.outcome === 'refused_by_application' ||
    (s.outcome === null && /unknown/.test(s.error ?? ''))
  );
}
