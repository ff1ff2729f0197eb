import type { Permission } from './permission';

/** Who is calling: resolved from the bearer token on every request. */
export interface Caller {
  /** The credential's id: the API token's (four-eyes compares it with the run's starter's). */
  tokenId: string;
  tenant: string;
  subject: string;
  permissions: ReadonlySet<Permission>;
  /**
   * The identity provider that signed a person in (its ID token's `iss`), which vouches for the
   * subject and the groups; null for an API token. '' for a session from before Warden recorded it.
   */
  issuer: string | null;
  /**
   * The identity provider's groups the caller is a member of (docs/security.md, approver groups); empty
   * for an API token, which stands for its subject alone.
   */
  groups: ReadonlySet<string>;
  /**
   * The remote planner families the credential may serve (`planners.serve` is scoped to these);
   * empty for every credential but an API token made with `--families`.
   */
  plannerFamilies?: ReadonlySet<string>;
}
