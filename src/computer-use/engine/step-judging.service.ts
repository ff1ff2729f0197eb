import { Injectable, Logger } from '@nestjs/common';
import {
  type Action,
  checkAction,
  focusedFieldPoint,
  lastClickPoint,
  needsFieldOcr,
  needsOcr,
  needsTitle,
  previousAction,
  typedSinceFocus,
  type OcrReading,
  type ScreenContext,
  type Verdict,
} from '../actions';
import type { ObservedScreen, StepHistory } from '../planner-contract/planner';
import { OcrLabelReader, OcrTimeoutError } from '../ocr/ocr-label-reader';
import type { ScreenTextLine } from '../ocr/ocr-screen-text';
import { lastClickFocus } from './planning-decisions';
import type { StepContext } from './step-context';

/**
 * Judging a planner's answer by Warden's rules and the agent's screen rules (docs/rules.md), with
 * OCR where the outline names nothing: the label under a click, the focused field's label, the
 * title bar; and the whole screen's text for the injection rail.
 */
@Injectable()
export class StepJudging {
  private readonly logger = new Logger(StepJudging.name);

  constructor(private readonly ocr: OcrLabelReader) {}

  /**
   * Warden's verdict on the answer: the outline's label, or OCR where the outline names nothing;
   * before typing, OCR of the focused field's label where the outline names no focused field; for
   * the agent's title screen rules on a host without an outline, OCR of the title bar.
   */
  async judge(
    ctx: StepContext,
    answer: unknown,
    screen: ObservedScreen,
    history: StepHistory[],
  ): Promise<{ verdict: Verdict; context: ScreenContext; clickLabel?: OcrReading }> {
    const context: ScreenContext = {
      width: screen.width,
      height: screen.height,
      outline: screen.outline,
      focus: lastClickFocus(history, screen),
      typed: typedSinceFocus(history, screen.outline),
      previous: previousAction(history),
      redacted: ctx.agent.redact_regions,
    };
    const verdict = checkAction(answer, context, ctx.rules);
    const action = verdict.action;
    if (!action) return { verdict, context };
    if (needsTitle(action, context, ctx.rules)) context.titleBar = await this.readTitleBar(screen);
    if (needsOcr(action, context, ctx.rules)) {
      const { x, y } = action as Action & { x: number; y: number };
      const ocr = await this.readLabel(screen, x, y);
      return { verdict: checkAction(answer, context, ctx.rules, ocr), context, clickLabel: ocr };
    }
    const field = needsFieldOcr(action, context)
      ? (focusedFieldPoint(context) ?? lastClickPoint(history))
      : null;
    if (!field) {
      const again =
        context.titleBar === undefined ? verdict : checkAction(answer, context, ctx.rules);
      return { verdict: again, context };
    }
    context.focusLabel = await this.readLabel(screen, field.x, field.y, 'beside a field');
    return { verdict: checkAction(answer, context, ctx.rules), context };
  }

  /**
   * Every line OCR reads on a screen whose host serves no outline, for the injection rail;
   * `failed` (the rail then fails closed) when it cannot; nothing where the outline has the text.
   */
  readScreenText(screen: ObservedScreen): Promise<ScreenTextLine[] | 'failed' | undefined> {
    if (screen.outline !== null) return Promise.resolve(undefined);
    const space = { width: screen.width, height: screen.height };
    return this.ocr.readScreenText(screen.png, space).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'OCR could not read the screen: the rail holds the action');
      return 'failed' as const;
    });
  }

  /**
   * What OCR reads in the screen's title bar (for title screen rules where the host serves no
   * outline): its words, or why it read none. A failure means no title rule applies.
   */
  private async readTitleBar(screen: ObservedScreen): Promise<OcrReading> {
    try {
      const space = { width: screen.width, height: screen.height };
      return (await this.ocr.readTitleBar(screen.png, space)) ?? { unreadable: 'no_text' };
    } catch (error) {
      this.logger.warn({ err: error }, 'OCR could not read the title bar: no title rule applies');
      return { unreadable: error instanceof OcrTimeoutError ? 'timed_out' : 'failed' };
    }
  }

  /**
   * What OCR reads at the point (or beside the field there): its words, or why it read none. A
   * failure is data for the rules, never a reason to send: nothing could read the label.
   */
  private async readLabel(
    screen: ObservedScreen,
    x: number,
    y: number,
    where: 'at the point' | 'beside a field' = 'at the point',
  ): Promise<OcrReading> {
    const space = { width: screen.width, height: screen.height };
    try {
      const label =
        where === 'at the point'
          ? await this.ocr.readLabelAt(screen.png, x, y, space)
          : await this.ocr.readFieldLabelAt(screen.png, x, y, space);
      return label ?? { unreadable: 'no_text' };
    } catch (error) {
      this.logger.warn({ err: error }, 'OCR could not read a label: nothing could read it');
      return { unreadable: error instanceof OcrTimeoutError ? 'timed_out' : 'failed' };
    }
  }
}
