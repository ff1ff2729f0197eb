import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { updatedRows } from '../../sql/sql';
import type { LoginChecks } from './oidc-client.service';

/** How long a person has at the identity provider's login page. */
export const LOGIN_SECONDS = 600;

/** The SQL of sign-ins under way: their checks, keyed by the SHA-256 of the browser's cookie. */
@Injectable()
export class OidcLoginsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(flowSha256: string, checks: LoginChecks, returnTo: string): Promise<void> {
    // Old, abandoned sign-ins go as new ones come.
    await this.dataSource.query(`DELETE FROM oidc_logins WHERE expires_at < now()`);
    await this.dataSource.query(
      `INSERT INTO oidc_logins (flow_sha256, state, nonce, code_verifier, return_to, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [flowSha256, checks.state, checks.nonce, checks.codeVerifier, returnTo, LOGIN_SECONDS],
    );
  }

  /** Takes the sign-in (once: a second callback with the same cookie finds nothing). */
  async take(flowSha256: string): Promise<(LoginChecks & { returnTo: string }) | null> {
    const rows = updatedRows<{
      state: string;
      nonce: string;
      code_verifier: string;
      return_to: string;
    }>(
      await this.dataSource.query(
        `DELETE FROM oidc_logins WHERE flow_sha256 = $1 AND expires_at > now()
         RETURNING state, nonce, code_verifier, return_to`,
        [flowSha256],
      ),
    );
    const row = rows[0];
    return row
      ? {
          state: row.state,
          nonce: row.nonce,
          codeVerifier: row.code_verifier,
          returnTo: row.return_to,
        }
      : null;
  }
}
