import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../sql/sql';
import type { ChatUser } from './chat-action';

/** A chat account linked to the person it belongs to (docs/approver-guide.md). */
export interface ChatLink {
  id: string;
  tenant: string;
  kind: ChatUser['kind'];
  chat_team: string;
  chat_user: string;
  chat_name: string | null;
  subject: string;
  issuer: string;
  linked_at: Date;
}

/** A one-time code a chat account got to link itself; only its SHA-256 is stored. */
export interface ChatLinkCode {
  tenant: string;
  kind: ChatUser['kind'];
  chat_team: string;
  chat_user: string;
  chat_name: string | null;
  expires_at: Date;
}

const LINK = `id, tenant, kind, chat_team, chat_user, chat_name, subject, issuer, linked_at`;
const CODE = `tenant, kind, chat_team, chat_user, chat_name, expires_at`;

/** The SQL of chat links and of the codes that make them. */
@Injectable()
export class ChatLinksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(tenant: string, who: ChatUser): Promise<ChatLink | null> {
    const rows: ChatLink[] = await this.dataSource.query(
      `SELECT ${LINK} FROM chat_links
        WHERE tenant = $1 AND kind = $2 AND chat_team = $3 AND chat_user = $4`,
      [tenant, who.kind, who.team, who.user],
    );
    return rows[0] ?? null;
  }

  /** The links of one person, oldest first. */
  ofPerson(tenant: string, subject: string): Promise<ChatLink[]> {
    return this.dataSource.query(
      `SELECT ${LINK} FROM chat_links WHERE tenant = $1 AND subject = $2 ORDER BY linked_at, id`,
      [tenant, subject],
    );
  }

  async addCode(codeSha256: string, tenant: string, who: ChatUser, seconds: number): Promise<Date> {
    const rows: Array<{ expires_at: Date }> = await this.dataSource.query(
      `INSERT INTO chat_link_codes (code_sha256, tenant, kind, chat_team, chat_user, chat_name, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
       RETURNING expires_at`,
      [codeSha256, tenant, who.kind, who.team, who.user, who.name, seconds],
    );
    return rows[0].expires_at;
  }

  /** A code not used yet and not expired, in the tenant; null for anything else. */
  async peekCode(tenant: string, codeSha256: string): Promise<ChatLinkCode | null> {
    const rows: ChatLinkCode[] = await this.dataSource.query(
      `SELECT ${CODE} FROM chat_link_codes
        WHERE code_sha256 = $1 AND tenant = $2 AND used_at IS NULL AND expires_at > now()`,
      [codeSha256, tenant],
    );
    return rows[0] ?? null;
  }

  /** Uses the code up, once: null when it was used, expired or is another tenant's. */
  async takeCode(
    manager: EntityManager,
    tenant: string,
    codeSha256: string,
  ): Promise<ChatLinkCode | null> {
    const rows = updatedRows<ChatLinkCode>(
      await manager.query(
        `UPDATE chat_link_codes SET used_at = now()
          WHERE code_sha256 = $1 AND tenant = $2 AND used_at IS NULL AND expires_at > now()
          RETURNING ${CODE}`,
        [codeSha256, tenant],
      ),
    );
    return rows[0] ?? null;
  }

  /** Links the chat account to the person; an account linked before goes to them instead. */
  async link(
    manager: EntityManager,
    code: ChatLinkCode,
    person: { subject: string; issuer: string },
  ): Promise<{ link: ChatLink; before: string | null }> {
    const before: Array<{ subject: string }> = await manager.query(
      `SELECT subject FROM chat_links
        WHERE tenant = $1 AND kind = $2 AND chat_team = $3 AND chat_user = $4 FOR UPDATE`,
      [code.tenant, code.kind, code.chat_team, code.chat_user],
    );
    const rows: ChatLink[] = await manager.query(
      `INSERT INTO chat_links (tenant, kind, chat_team, chat_user, chat_name, subject, issuer)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (tenant, kind, chat_team, chat_user) DO UPDATE
         SET chat_name = EXCLUDED.chat_name, subject = EXCLUDED.subject,
             issuer = EXCLUDED.issuer, linked_at = now()
       RETURNING ${LINK}`,
      [
        code.tenant,
        code.kind,
        code.chat_team,
        code.chat_user,
        code.chat_name,
        person.subject,
        person.issuer,
      ],
    );
    return { link: rows[0], before: before[0]?.subject ?? null };
  }

  /** Removes one of the person's links; null when they have none by that id. */
  async unlink(
    manager: EntityManager,
    tenant: string,
    subject: string,
    id: string,
  ): Promise<ChatLink | null> {
    const rows = updatedRows<ChatLink>(
      await manager.query(
        `DELETE FROM chat_links WHERE id = $1 AND tenant = $2 AND subject = $3 RETURNING ${LINK}`,
        [id, tenant, subject],
      ),
    );
    return rows[0] ?? null;
  }
}
