import type { Permission } from './permission';

/** Who is calling: resolved from the bearer token on every request. */
export interface Caller {
  tokenId: string;
  tenant: string;
  subject: string;
  permissions: ReadonlySet<Permission>;
}
