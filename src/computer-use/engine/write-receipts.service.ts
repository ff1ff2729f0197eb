import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { OutlineElement } from '@warden/protocol';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { isReceipt, processesScreen, type Receipt, receiptOf, refusalOf } from '../actions/receipt';
import type { Step } from '../runs/step.entity';
import { StepReceiptsRepository } from '../runs/step-receipts.repository';
import { ScreenHostError } from '../host-client/screen-host.client';
import { WARDEN_ACTOR } from '../../audit/warden-actor';
import type { StepContext } from './step-context';

/**
 * The application's own word on a write (its receipt): once the screen settled after a sent write,
 * the message the application shows (a status bar with its type, a message dialog) is read from
 * the outline and kept on the step and in a `computer_use.write.receipt` event, beside the
 * `computer_use.write` event recorded with the send. A fresh error or abort message (E, A) ends the
 * step `refused_by_application` (after a write the application processes, such a message is its
 * answer even where the same text stood before): the run goes on, and its next step is planned
 * knowing why. Where
 * nothing can be read, the receipt says so; a receipt never stops a run, and never sends anything.
 */
@Injectable()
export class WriteReceipts {
  private readonly logger = new Logger(WriteReceipts.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly receipts: StepReceiptsRepository,
    private readonly audit: AuditService,
  ) {}

  /** Reads and records the receipt of `step`'s write (a step that sent no write has none). */
  async read(ctx: StepContext, step: Step): Promise<void> {
    if (step.classification !== 'write' || step.phase !== 'done') return;
    if (isReceipt(step.receipt)) return; // recorded already
    const pending = step.receipt;
    const outline = await this.outline(ctx);
    const receipt: Receipt =
      'failed' in outline
        ? { before: pending?.before ?? null, none: outline.failed }
        : receiptOf(pending, outline.elements, processesScreen(step.action, step.edit !== null));
    // A staged edit stays staged: what it typed is still the application's to store or refuse.
    const refusal = step.staged ? null : refusalOf(receipt);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.receipts.record(step, receipt, refusal, manager))) return;
      await this.audit.record(
        {
          tenant: ctx.run.tenant,
          type: 'computer_use.write.receipt',
          actor: WARDEN_ACTOR,
          runId: ctx.run.id,
          step: step.n,
          details: {
            agent: ctx.run.agent,
            idempotency_key: step.id,
            receipt: withoutBefore(receipt),
            ...(refusal ? { outcome: 'refused_by_application', why: refusal } : {}),
          },
        },
        manager,
      );
    });
  }

  /** The settled screen's outline (null: the host serves none), or why it could not be read. */
  private async outline(
    ctx: StepContext,
  ): Promise<{ elements: OutlineElement[] | null } | { failed: string }> {
    try {
      return { elements: await ctx.host.elements() };
    } catch (error) {
      if (!(error instanceof ScreenHostError)) throw error;
      this.logger.warn({ err: error, run: ctx.run.id }, 'the outline for a receipt was not read');
      return { failed: `the screen host did not answer for the outline: ${error.message}` };
    }
  }
}

/** The event carries what the application said; the message before stays on the step. */
function withoutBefore(receipt: Receipt): Record<string, unknown> {
  const { before: _before, ...said } = receipt;
  return said;
}
