import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

export const GENESIS_SHA256 = '0'.repeat(64);

/** What an event's SHA-256 is computed over, with the hash it claims and where it sits. */
export interface ChainLink {
  id: string;
  tenant: string;
  seq: number;
  type: string;
  actor: string;
  runId: string | null;
  step: number | null;
  at: Date;
  details: Record<string, unknown>;
  prevSha256: string;
  sha256: string;
}

export interface VerifyResult {
  ok: boolean;
  checked: number;
  first_bad_id?: string;
  head_sha256: string;
}

/** The SHA-256 of an event: its content and the previous event's hash, as canonical JSON. */
export function eventSha256(event: Omit<ChainLink, 'id' | 'sha256'>): string {
  const content = canonicalJson({
    tenant: event.tenant,
    seq: event.seq,
    type: event.type,
    actor: event.actor,
    run_id: event.runId,
    step: event.step,
    at: event.at.toISOString(),
    details: event.details,
    prev_sha256: event.prevSha256,
  });
  return createHash('sha256').update(content).digest('hex');
}

/**
 * A walk along one tenant's chain from its first event, checking each link in seq order: the seq
 * follows the one before, `prev_sha256` is the previous event's hash, and `sha256` is the event's
 * own. The one check of a chain, whether its events come from the database or from an export.
 */
export class ChainWalk {
  private prevSha = GENESIS_SHA256;
  private prevSeq = 0;
  private checked = 0;
  private firstBad?: string;

  /** Checks the next event; false once the chain is broken (here or before). */
  next(link: ChainLink): boolean {
    if (this.firstBad !== undefined) return false;
    this.checked += 1;
    const intact =
      link.seq === this.prevSeq + 1 &&
      link.prevSha256 === this.prevSha &&
      eventSha256(link) === link.sha256;
    if (!intact) {
      this.firstBad = link.id;
      return false;
    }
    this.prevSha = link.sha256;
    this.prevSeq = link.seq;
    return true;
  }

  /** `{ok, checked, first_bad_id?, head_sha256}`: the head is the last intact event's hash. */
  result(): VerifyResult {
    return this.firstBad === undefined
      ? { ok: true, checked: this.checked, head_sha256: this.prevSha }
      : {
          ok: false,
          checked: this.checked,
          first_bad_id: this.firstBad,
          head_sha256: this.prevSha,
        };
  }
}
