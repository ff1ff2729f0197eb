/**
 * What lets evidence go sooner (docs/security.md): the tenant's screen retention and a run's legal hold,
 * set through their own endpoints (computer-use/retention/), not in an agent's config. A table as
 * weakening.ts has for an agent's config: each row a control, when it loosens, and what the 403 and
 * the 400 say. A file apart: retention (and so the CLI's `screens purge`) needs this alone, not the
 * agent fields that weakening.ts reads.
 */
export type EvidenceControl = 'retention_days' | 'legal_hold';

/** The tenant's retention shortened, or a run's hold lifted: from → to. */
export interface EvidenceWeakening {
  control: EvidenceControl;
  from: unknown;
  to: unknown;
}

interface EvidenceRule {
  control: EvidenceControl;
  weakens(before: unknown, after: unknown): boolean;
  change: string;
  when: string;
  why: string;
}

const EVIDENCE_RULES: readonly EvidenceRule[] = [
  {
    control: 'retention_days',
    weakens: (a, b) => (b as number) < (a as number),
    change: 'shortening retention_days',
    when: 'retention_days is shortened',
    why: 'recorded screens may be purged sooner, at the next purge',
  },
  {
    control: 'legal_hold',
    weakens: (a, b) => a === true && b !== true,
    change: 'lifting a legal hold',
    when: 'a legal hold is lifted',
    why: "the run's screens may be purged once they are past retention",
  },
];

const EVIDENCE_RULE_OF = new Map(EVIDENCE_RULES.map((rule) => [rule.control, rule]));

/** The weakening of moving `control` from `before` to `after`, or null when it loosens nothing. */
export function evidenceWeakening(
  control: EvidenceControl,
  before: unknown,
  after: unknown,
): EvidenceWeakening | null {
  return EVIDENCE_RULE_OF.get(control)!.weakens(before, after)
    ? { control, from: before, to: after }
    : null;
}

/** The 403 for a caller without `governance.weaken`. */
export function evidenceRefusal(w: EvidenceWeakening): string {
  return `${EVIDENCE_RULE_OF.get(w.control)!.change} needs the permission governance.weaken as well as computer_use.admin`;
}

/** The 400 when the weakening has no reason, or null when it has one. */
export function evidenceReasonMissing(
  w: EvidenceWeakening,
  reason: string | null | undefined,
): string | null {
  if ((reason ?? '').trim()) return null;
  const rule = EVIDENCE_RULE_OF.get(w.control)!;
  return `reason is required when ${rule.when}: say why ${rule.why}`;
}
