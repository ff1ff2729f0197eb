import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { trustedIssuer } from '../computer-use/approvals/deciders';
import { AuditService } from '../audit/audit.service';
import type { Caller } from '../auth/caller';
import { SessionsRepository } from '../auth/sessions/sessions.repository';
import { forbidden, notFound } from '../common/domain-error';
import { sha256Hex } from '../common/sha256';
import { AppConfig } from '../config/app-config';
import type { ChatUser } from './chat-action';
import { type ChatLink, ChatLinksRepository } from './chat-links.repository';

/** How long a code a chat account got may link it. */
export const LINK_CODE_SECONDS = 900;

/** A chat account's link as the API shows it. */
export interface ChatLinkView {
  id: string;
  kind: string;
  chat_team: string;
  chat_user: string;
  chat_name: string | null;
  subject: string;
  linked_at: string;
}

/** What a code would link, shown to the person before they link it. */
export interface ChatLinkCodeView {
  kind: string;
  chat_team: string;
  chat_user: string;
  chat_name: string | null;
  expires_at: string;
}

/** The person a chat account stands for, or why it stands for nobody now. */
export type ChatPerson =
  | { caller: Caller; link: ChatLink }
  | { refusal: 'unmapped' | 'no_sign_in'; message: string; linkUrl: string | null };

const CHAT_WORDS = { slack: 'Slack', teams: 'Teams' } as const;

/**
 * Who pressed a chat button (docs/approver-guide.md): a chat account stands for the person who
 * linked it, once, while signed in to the console. Slack's and Teams' requests name the chat
 * account but not the person's identity-provider account (that would take a call to their APIs),
 * so an account nobody linked gets a one-time code instead: opened in the console by its owner
 * while signed in, it links the account to them. A linked account acts with the person's latest
 * sign-in (their groups then, the permissions those map to now) while it is younger than a
 * console session may live (SESSION_MAX_SECONDS): what the console would let them do.
 */
@Injectable()
export class ChatLinks {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly links: ChatLinksRepository,
    private readonly sessions: SessionsRepository,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  async personOf(tenant: string, who: ChatUser): Promise<ChatPerson> {
    const link = await this.links.find(tenant, who);
    if (!link) return this.offerCode(tenant, who);
    const signIn = await this.sessions.latestSignIn(
      tenant,
      link.subject,
      link.issuer,
      this.config.SESSION_MAX_SECONDS,
    );
    if (!signIn) {
      const hours = Math.round(this.config.SESSION_MAX_SECONDS / 360) / 10;
      return {
        refusal: 'no_sign_in',
        message: `${link.subject} has not signed in to the Warden console in the last ${hours} hours: a decision from chat acts with what your latest sign-in says of your groups, so sign in there once and press the button again`,
        linkUrl: null,
      };
    }
    return {
      link,
      caller: {
        tokenId: signIn.id,
        tenant,
        subject: link.subject,
        permissions: new Set(signIn.permissions),
        issuer: link.issuer,
        groups: new Set(signIn.groups),
      },
    };
  }

  /** A code the account may link itself with, and the words that say how. */
  private async offerCode(tenant: string, who: ChatUser): Promise<ChatPerson> {
    const chat = CHAT_WORDS[who.kind];
    if (!this.config.OIDC_ISSUER_URL || !this.config.PUBLIC_URL) {
      return {
        refusal: 'unmapped',
        message: `Warden does not know who you are in ${chat}, and this deployment signs nobody in through an identity provider, so no ${chat} account can be linked: decide in the Warden console`,
        linkUrl: null,
      };
    }
    const code = randomBytes(24).toString('base64url');
    await this.links.addCode(sha256Hex(code), tenant, who, LINK_CODE_SECONDS);
    const linkUrl = `${this.config.PUBLIC_URL}/console/chat-link#${code}`;
    return {
      refusal: 'unmapped',
      message: `Warden does not know who you are in ${chat} yet. Within ${LINK_CODE_SECONDS / 60} minutes, open ${linkUrl} while signed in to Warden to link this ${chat} account to you, then press the button again`,
      linkUrl,
    };
  }

  /** What a code would link, for the person about to link it. */
  async preview(caller: Caller, code: string): Promise<ChatLinkCodeView> {
    this.mustBePerson(caller);
    const row = await this.links.peekCode(caller.tenant, sha256Hex(code));
    if (!row) throw notFound(codeGone);
    return {
      kind: row.kind,
      chat_team: row.chat_team,
      chat_user: row.chat_user,
      chat_name: row.chat_name,
      expires_at: row.expires_at.toISOString(),
    };
  }

  /** Links the chat account that got `code` to the signed-in person; audited. */
  async link(caller: Caller, code: string): Promise<ChatLinkView> {
    const issuer = this.mustBePerson(caller);
    return this.dataSource.transaction(async (manager) => {
      const row = await this.links.takeCode(manager, caller.tenant, sha256Hex(code));
      if (!row) throw notFound(codeGone);
      const { link, before } = await this.links.link(manager, row, {
        subject: caller.subject,
        issuer,
      });
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'chat.linked',
          actor: caller.subject,
          details: {
            kind: link.kind,
            chat_team: link.chat_team,
            chat_user: link.chat_user,
            chat_name: link.chat_name,
            linked_before_to: before,
          },
        },
        manager,
      );
      return linkView(link);
    });
  }

  async list(caller: Caller): Promise<{ items: ChatLinkView[] }> {
    return { items: (await this.links.ofPerson(caller.tenant, caller.subject)).map(linkView) };
  }

  /** Removes one of the caller's links; audited. */
  async unlink(caller: Caller, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const gone = await this.links.unlink(manager, caller.tenant, caller.subject, id);
      if (!gone) throw notFound(`you have no chat link ${id}`);
      await this.audit.record(
        {
          tenant: caller.tenant,
          type: 'chat.unlinked',
          actor: caller.subject,
          details: { kind: gone.kind, chat_team: gone.chat_team, chat_user: gone.chat_user },
        },
        manager,
      );
    });
  }

  /** A chat account stands for a person, signed in through the trusted identity provider. */
  private mustBePerson(caller: Caller): string {
    if (caller.issuer === null) {
      throw forbidden(
        'a chat account is linked to a person signed in through the identity provider; an API token stands for itself',
      );
    }
    if (!trustedIssuer(caller.issuer, this.config.OIDC_ISSUER_URL)) {
      throw forbidden(
        'your sign-in is not from the identity provider this deployment trusts now: sign in again',
      );
    }
    return caller.issuer;
  }
}

const codeGone =
  'no such link code: it was used, it expired, or it is another tenant’s; press the button in the chat again for a new one';

function linkView(link: ChatLink): ChatLinkView {
  return {
    id: link.id,
    kind: link.kind,
    chat_team: link.chat_team,
    chat_user: link.chat_user,
    chat_name: link.chat_name,
    subject: link.subject,
    linked_at: new Date(link.linked_at).toISOString(),
  };
}
