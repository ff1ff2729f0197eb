import type { Approval, DecisionVia } from '../approvals/approval.entity';
import type { Caller } from '../../auth/caller';

/**
 * A decision as a person makes it, wherever: their comment; where they made it (by default: a
 * console session or a bearer token, as the caller is); the screen they were shown (its SHA-256:
 * a decision about another screen is refused); and, for a chat decision, the chat's own rule on
 * what its message showed, checked under the same lock as the decision (why not, or null).
 */
export interface DecisionInput {
  comment?: string;
  via?: DecisionVia;
  /** The console's page view it was decided from (oversight: time to decide, list in view). */
  viewId?: string;
  screenSha256?: string;
  check?: (approval: Approval) => string | null;
}

/** Where a caller decides when nothing else says: a person's session, or a bearer token. */
export function viaOf(caller: Caller): DecisionVia {
  return caller.issuer === null ? 'api' : 'console';
}

/** What the caller may do with a waiting action: null where they may, else why not. */
export interface ForYou {
  approve: string | null;
  reject: string | null;
}
