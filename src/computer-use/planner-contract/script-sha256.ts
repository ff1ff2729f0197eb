import { canonicalJson } from '../../audit/canonical-json';
import { sha256Hex } from '../../common/sha256';

/**
 * A scripted planner's content hash: SHA-256 of its script as canonical JSON (keys sorted), so it
 * survives a round trip through jsonb. The weakening granted for an agent whose writes need no
 * approval is bound to it, and the send gate compares it with the hash of the script that planned
 * the step (docs/security.md "Weakening").
 */
export function scriptSha256(script: unknown): string {
  return sha256Hex(canonicalJson(script));
}
