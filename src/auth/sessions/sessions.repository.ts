import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../../sql/sql';
import type { Permission } from '../permission';

export interface NewSession {
  tenant: string;
  subject: string;
  /** The identity provider that signed the person in (the ID token's `iss`). */
  issuer: string;
  name: string | null;
  email: string | null;
  groups: string[];
  idSha256: string;
  csrfToken: string;
  maxSeconds: number;
}

/** A live session as a request sees it, with the permissions its groups map to right now. */
export interface LiveSession {
  id: string;
  tenant: string;
  subject: string;
  name: string | null;
  /** '' for a session from before the issuer was recorded. */
  issuer: string;
  groups: string[];
  csrf_token: string;
  permissions: Permission[];
}

/** The SQL of console sessions. Only the SHA-256 of a session's cookie id is stored. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, s: NewSession): Promise<string> {
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO sessions (tenant, subject, issuer, name, email, groups, id_sha256, csrf_token,
                             expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))
       RETURNING id`,
      [
        s.tenant,
        s.subject,
        s.issuer,
        s.name,
        s.email,
        s.groups,
        s.idSha256,
        s.csrfToken,
        s.maxSeconds,
      ],
    );
    return rows[0].id;
  }

  /**
   * The live session (not revoked, not past its absolute end, used within the idle time), marked
   * as used now; its permissions are computed from the tenant's current mapping, so a mapping
   * change applies to the next request. Null for anything else.
   */
  async touch(idSha256: string, idleSeconds: number): Promise<LiveSession | null> {
    const rows = updatedRows<LiveSession>(
      await this.dataSource.query(
        `UPDATE sessions s SET last_seen_at = now()
          WHERE s.id_sha256 = $1 AND s.revoked_at IS NULL AND s.expires_at > now()
            AND s.last_seen_at > now() - make_interval(secs => $2)
          RETURNING s.id, s.tenant, s.subject, s.name, s.issuer, s.groups, s.csrf_token,
            ARRAY(SELECT DISTINCT p FROM access_groups a, unnest(a.permissions) AS p
                   WHERE a.tenant = s.tenant AND a.group_name = ANY(s.groups)
                   ORDER BY p) AS permissions`,
        [idSha256, idleSeconds],
      ),
    );
    return rows[0] ?? null;
  }

  /**
   * A person's latest sign-in made within `maxSeconds` (whether its session is still used or not),
   * with its groups and the permissions they map to in the tenant now: what a decision from chat
   * acts with (docs/approver-guide.md). Null when they have not signed in that recently.
   */
  async latestSignIn(
    tenant: string,
    subject: string,
    issuer: string,
    maxSeconds: number,
  ): Promise<{ id: string; groups: string[]; permissions: Permission[] } | null> {
    const rows: Array<{ id: string; groups: string[]; permissions: Permission[] }> =
      await this.dataSource.query(
        `SELECT s.id, s.groups,
           ARRAY(SELECT DISTINCT p FROM access_groups a, unnest(a.permissions) AS p
                  WHERE a.tenant = s.tenant AND a.group_name = ANY(s.groups)
                  ORDER BY p) AS permissions
           FROM sessions s
          WHERE s.tenant = $1 AND s.subject = $2 AND s.issuer = $3
            AND s.created_at > now() - make_interval(secs => $4)
          ORDER BY s.created_at DESC LIMIT 1`,
        [tenant, subject, issuer, maxSeconds],
      );
    return rows[0] ?? null;
  }

  /** Ends the session; answers it when it was live. */
  async revoke(
    manager: EntityManager,
    idSha256: string,
  ): Promise<{ id: string; tenant: string; subject: string } | null> {
    const rows = updatedRows<{ id: string; tenant: string; subject: string }>(
      await manager.query(
        `UPDATE sessions SET revoked_at = now()
          WHERE id_sha256 = $1 AND revoked_at IS NULL
          RETURNING id, tenant, subject`,
        [idSha256],
      ),
    );
    return rows[0] ?? null;
  }
}
