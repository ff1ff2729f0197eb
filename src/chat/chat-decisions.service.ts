import { Injectable } from '@nestjs/common';
import type { Approval } from '../computer-use/approvals/approval.entity';
import type { ApprovalView } from '../computer-use/approvals/approval.view';
import { ApprovalsRepository } from '../computer-use/approvals/approvals.repository';
import { ApprovalsService } from '../computer-use/approvals-api/approvals.service';
import type { DecisionInput } from '../computer-use/approvals-api/decision-input';
import { AuditService } from '../audit/audit.service';
import { DomainError } from '../common/domain-error';
import { SettingsService } from '../computer-use/settings/settings.service';
import { approveInChatStops } from '../notifications/chat-buttons';
import type { ChatAction, ChatUser } from './chat-action';
import { ChatLinks } from './chat-links.service';
import { ChatRequestsRepository } from './chat-requests.repository';

/** Why a chat request decided nothing. */
export type ChatRefusal =
  'unverified' | 'replayed' | 'unmapped' | 'no_sign_in' | 'not_permitted' | 'late' | 'refused';

export type ChatOutcome =
  | { decided: 'approved' | 'rejected'; by: string; approval: ApprovalView }
  | { refused: ChatRefusal; message: string; linkUrl: string | null };

/** A press of a chat button: what it asks, and who pressed it. */
export interface ChatPress {
  action: ChatAction;
  user: ChatUser;
}

/**
 * A decision from chat is a console decision (docs/security.md): once its request is verified
 * (by the Slack or Teams route), it is taken once (a replay is refused), its chat account must
 * stand for a person of the tenant (chat-links.service.ts) who holds agents.approve, and it goes
 * through the approvals service as the console's does: approver groups, four-eyes, expiry, one
 * decision, the screen the message was about; Approve only where the message showed what will be
 * sent. Every refusal is audited (`approval.chat_refused`) in the approval's tenant.
 */
@Injectable()
export class ChatDecisions {
  constructor(
    private readonly approvals: ApprovalsService,
    private readonly stored: ApprovalsRepository,
    private readonly links: ChatLinks,
    private readonly requests: ChatRequestsRepository,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
  ) {}

  /** The approval a press names, in whatever tenant: only to find whose secrets verify it. */
  approvalOf(action: ChatAction): Promise<Approval | null> {
    return this.stored.findById(action.approvalId);
  }

  /**
   * Decides a verified press. `digest` is what makes the request unique (Slack's signature, a
   * Teams activity's id): a second request with it decides nothing.
   */
  async decide(approval: Approval, press: ChatPress, digest: string): Promise<ChatOutcome> {
    const tenant = approval.tenant;
    if (!(await this.requests.take(digest))) {
      return this.refuse(tenant, press, {
        refused: 'replayed',
        message: 'this request was taken before: a chat request decides once',
      });
    }
    const person = await this.links.personOf(tenant, press.user);
    if ('refusal' in person) {
      return this.refuse(tenant, press, {
        refused: person.refusal,
        message: person.message,
        linkUrl: person.linkUrl,
      });
    }
    const { caller } = person;
    if (!caller.permissions.has('agents.approve')) {
      return this.refuse(
        tenant,
        press,
        {
          refused: 'not_permitted',
          message: `${caller.subject} may not decide writes in tenant ${tenant}: none of their groups at their latest sign-in is mapped to agents.approve`,
        },
        caller.subject,
      );
    }
    const config = await this.settings.agent(tenant, approval.agent);
    const includeText = config?.notify_include_screen === true;
    const input: DecisionInput = {
      via: press.user.kind,
      screenSha256: press.action.screenSha256,
      // Approve only on what the message showed; checked under the decision's lock.
      check:
        press.action.verb === 'approve'
          ? (held) => approveInChatStops(held, includeText)
          : undefined,
    };
    try {
      const view =
        press.action.verb === 'approve'
          ? await this.approvals.approve(caller, approval.id, input)
          : await this.approvals.reject(caller, approval.id, input);
      return {
        decided: view.status === 'rejected' ? 'rejected' : 'approved',
        by: caller.subject,
        approval: view,
      };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return this.refuse(
        tenant,
        press,
        {
          refused: (await this.isClosed(approval.id)) ? 'late' : 'refused',
          message: error.message,
        },
        caller.subject,
      );
    }
  }

  /** A request about an approval of `tenant` that did not verify: refused, audited there. */
  refuseUnverified(tenant: string, press: ChatPress, why: string): Promise<ChatOutcome> {
    return this.refuse(tenant, press, {
      refused: 'unverified',
      message: `the request is not verified (${why})`,
    });
  }

  /** Whether the approval is decided or past its expiry: a press on it came too late. */
  private async isClosed(id: string): Promise<boolean> {
    const now = await this.stored.findById(id);
    return !now || now.status !== 'pending' || now.expiresAt.getTime() <= Date.now();
  }

  private async refuse(
    tenant: string,
    press: ChatPress,
    refusal: { refused: ChatRefusal; message: string; linkUrl?: string | null },
    person?: string,
  ): Promise<ChatOutcome> {
    const { user, action } = press;
    await this.audit.record({
      tenant,
      type: 'approval.chat_refused',
      // Who pressed: the person their chat account stands for, else the chat account itself.
      actor: person ?? `${user.kind}:${user.team}/${user.user}`,
      details: {
        via: user.kind,
        approval_id: action.approvalId,
        decision: action.verb,
        refused: refusal.refused,
        message: refusal.message,
        chat_team: user.team,
        chat_user: user.user,
        chat_name: user.name,
      },
    });
    return { refused: refusal.refused, message: refusal.message, linkUrl: refusal.linkUrl ?? null };
  }
}
