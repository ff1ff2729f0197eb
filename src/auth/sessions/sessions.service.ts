import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { sha256Hex } from '../../common/sha256';
import { AppConfig } from '../../config/app-config';
import { TenantsService } from '../../tenants/tenants.service';
import type { Caller } from '../caller';
import type { Person } from '../oidc/person';
import { SessionsRepository } from './sessions.repository';

/** A person's request through the console: who, and the token its changes must carry (CSRF). */
export interface SessionCaller {
  caller: Caller;
  csrfToken: string;
}

/**
 * Console sessions (docs/security.md): an opaque random id in a cookie, its SHA-256 in
 * PostgreSQL, an idle and an absolute end, and the person's groups, mapped to permissions on
 * every request from the tenant's current mapping.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly tenants: TenantsService,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  /** Starts a session for a person who just signed in; answers the cookie's value (shown once). */
  async start(person: Person): Promise<string> {
    const cookieValue = randomBytes(32).toString('base64url');
    await this.dataSource.transaction(async (manager) => {
      await this.tenants.ensure(person.tenant, manager);
      const id = await this.sessions.insert(manager, {
        ...person,
        idSha256: sha256Hex(cookieValue),
        csrfToken: randomBytes(32).toString('base64url'),
        maxSeconds: this.config.SESSION_MAX_SECONDS,
      });
      await this.audit.record(
        {
          tenant: person.tenant,
          type: 'session.signed_in',
          actor: person.subject,
          details: {
            session_id: id,
            name: person.name,
            email: person.email,
            issuer: person.issuer,
            groups: person.groups,
          },
        },
        manager,
      );
    });
    return cookieValue;
  }

  /** The caller a session cookie stands for, or null when the session is unknown or over. */
  async authenticate(cookieValue: string): Promise<SessionCaller | null> {
    const live = await this.sessions.touch(
      sha256Hex(cookieValue),
      this.config.SESSION_IDLE_SECONDS,
    );
    if (!live) return null;
    return {
      caller: {
        tokenId: live.id,
        tenant: live.tenant,
        subject: live.subject,
        permissions: new Set(live.permissions),
        issuer: live.issuer,
        groups: new Set(live.groups),
      },
      csrfToken: live.csrf_token,
    };
  }

  /** Ends the session at Warden: its cookie is worth nothing from now on. */
  async end(cookieValue: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const ended = await this.sessions.revoke(manager, sha256Hex(cookieValue));
      if (!ended) return;
      await this.audit.record(
        {
          tenant: ended.tenant,
          type: 'session.signed_out',
          actor: ended.subject,
          details: { session_id: ended.id },
        },
        manager,
      );
    });
  }
}
