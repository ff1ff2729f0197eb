import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { loadRules } from '../actions';
import { targetSeen } from '../planner-contract/batch-target';
import type { ObservedScreen, PlanningContext } from '../planner-contract/planner';
import { decodePng } from '../pixels/png-decoder';
import type { ModelPlannerConfig, Rect } from '../settings/agent-config';
import type { ModelTool } from '../../config/model-tools';
import {
  batchGoesOn,
  collapseOld,
  type Conversation,
  endBatch,
  type ItemRecord,
  MAX_BATCH,
  readConversation,
  resultsOf,
  type TurnRecord,
} from './conversation';
import { type CallSession, CallTally, ModelCalls } from './model-calls.service';
import { ModelImages } from './model-images';
import { type ModelPlannerState, readState, trimNotes } from './planner-state';
import {
  askAfter,
  askFirst,
  describeStep,
  instructions,
  intro,
  type PromptInput,
  screenLabel,
} from './prompt';
import type {
  AnswerCall,
  CallResult,
  Exchange,
  ModelImage,
  ModelPlanResult,
  Turn,
} from './provider';
import { PROVIDERS } from './providers/registry';
import { type ScreenScale, scaleFor, toScreen } from './scaling';
import { screenAnswer } from './screen-moves';

/** The longest answer a model may write for one turn (a batch of actions). */
const MAX_OUTPUT_TOKENS = 2048;
/** Model calls one step may make while the model only looks (screenshot, zoom). */
const MAX_CALLS_PER_STEP = 3;
/** An answer kept to go back to the provider, at most this much JSON; beyond, its text is left out. */
const MAX_ECHO_CHARS = 256 * 1024;

/**
 * A model whose tool answers several actions in one turn (Anthropic's computer toolset, OpenAI's
 * GA computer tool), planned one action a step (docs/models.md, "Batches"). A step either takes the
 * next action of the batch under way, asking no model, or asks the model, with its last answer
 * and what became of each of its calls in the provider's own format. Looks and zooms are answered
 * from the screen at that moment and are no steps. Each action goes through the engine's one path
 * like any other: judged on the screen as it is then (with what the model saw where it lands, for
 * the engine to compare), and a refusal, a hold, a stop or a cap ends the batch.
 */
@Injectable()
export class BatchTurns {
  constructor(
    private readonly calls: ModelCalls,
    private readonly images: ModelImages,
  ) {}

  async plan(
    config: ModelPlannerConfig,
    tool: ModelTool,
    ctx: PlanningContext,
  ): Promise<ModelPlanResult> {
    const previous = readState(ctx.state, config.provider);
    const notes: Record<string, string> = { ...(previous?.notes ?? {}) };
    let conversation = readConversation(previous?.conversation);
    let screen = ctx.screen;
    const tally = new CallTally();
    let session: CallSession | null = null;
    let turn = conversation?.turns.at(-1) ?? null;
    if (turn && turn.next < turn.items.length) {
      const goes = batchGoesOn(turn, ctx.history);
      if (!goes.goes) endBatch(turn, goes.reason);
    }
    for (;;) {
      // The batch under way: its looks answered now, its next action this step's.
      while (turn && turn.next < turn.items.length) {
        const item = turn.items[turn.next];
        const place = turn.next + 1;
        if (item.notExecuted !== undefined) {
          turn.next = turn.items.length;
          break;
        }
        turn.next++;
        if (item.kind !== 'action') {
          screen = await ctx.look();
          item.screen = screen.sha256;
          item.space = { width: screen.width, height: screen.height };
          continue;
        }
        item.step = ctx.step;
        delete notes[String(ctx.step)];
        if (item.note) notes[String(ctx.step)] = item.note;
        const state: ModelPlannerState = {
          provider: config.provider,
          step: ctx.step,
          continuation: null,
          notes: trimNotes(notes),
          conversation,
        };
        return {
          action: item.answer,
          state,
          ...(screen !== ctx.screen ? { screen } : {}),
          model: tally.calls > 0 ? tally.record(config) : noCalls(config),
          safetyChecks: turn.checks,
          batch: { turn: turn.id, place, seen: item.seen },
        };
      }
      // No batch under way: the model is asked.
      session ??= await this.calls.open(config, ctx);
      await this.calls.checkBudget(config, ctx);
      const scale = scaleFor({ width: screen.width, height: screen.height });
      if (turn) {
        const lastLook = turn.items.at(-1);
        const shown = lastLook?.kind === 'look' && lastLook.screen === screen.sha256;
        turn.after = { step: ctx.step, screen: shown ? null : screen.sha256 };
      }
      const kept = conversation ?? {
        base: { step: ctx.step, screen: screen.sha256 },
        turns: [],
      };
      const collapsed = collapseOld(kept, config.history_screens);
      const request = await this.request(config, tool, ctx, {
        conversation: kept,
        collapsed,
        screen,
        scale,
        session,
        notes,
      });
      const answer = await this.calls.call(
        PROVIDERS[config.provider],
        config,
        ctx,
        request,
        session,
      );
      tally.add(answer, config);
      turn = {
        id: randomUUID(),
        step: ctx.step,
        screen: screen.sha256,
        echo: boundedEcho(answer.echo),
        callId: answer.callId,
        functionCalls: answer.functionCalls,
        checks: answer.safetyChecks,
        items: itemsOf(answer.calls, screen, scale),
        next: 0,
      };
      // A model that only looks is asked again, a bounded number of times; then its last look is
      // refused as an invalid action (a step), as a single tool's would be.
      if (tally.calls >= MAX_CALLS_PER_STEP && turn.items.every((i) => i.kind !== 'action')) {
        const last = turn.items.at(-1)!;
        last.kind = 'action';
        last.answer = { action: last.answer.action === 'zoom' ? 'zoom' : 'screenshot' };
        last.note = `You looked ${tally.calls} times in one step; the screenshot you have is current. Choose an action.`;
      }
      conversation = { base: kept.base, turns: [...kept.turns, turn] };
    }
  }

  /**
   * The request: the timeline up to the conversation's start (lines only), the screen it starts
   * from, and each answer since with its results and the screen after it.
   */
  private async request(
    config: ModelPlannerConfig,
    tool: ModelTool,
    ctx: PlanningContext,
    at: {
      conversation: Conversation;
      collapsed: boolean;
      screen: ObservedScreen;
      scale: ScreenScale;
      session: CallSession;
      notes: Record<string, string>;
    },
  ): Promise<Turn> {
    const { conversation, collapsed, screen, scale, notes } = at;
    const { redact } = at.session;
    const prompt: PromptInput = {
      goal: ctx.goal,
      system: ctx.system,
      step: ctx.step,
      history: ctx.history,
      scale,
      notes: {},
      rules: loadRules(),
      format: 'batch',
    };
    const base = conversation.base;
    const before = ctx.history.filter((h) => h.n < base.step);
    const image = async (sha: string, label: string): Promise<ModelImage> => {
      const png =
        sha === screen.sha256
          ? await this.images.scaled(sha, screen.png, scale.model)
          : await this.images.stored(ctx.tenant, sha, scale.model);
      // A screen no longer stored (retention) is said, not shown.
      return {
        png: png ?? Buffer.alloc(0),
        sha256: sha,
        label: png ? label : `${label} (no longer kept)`,
      };
    };
    const exchanges: Exchange[] = [];
    const turns = conversation.turns;
    for (const [i, turn] of turns.entries()) {
      const after = turn.after!;
      const results: CallResult[] = [];
      for (const r of resultsOf(turn, ctx.history, scale)) {
        const result: CallResult = {
          id: r.id,
          toolset: r.toolset,
          text: redact(r.text),
          error: r.error,
        };
        if (r.image && !turn.collapsed) {
          result.image = await this.resultImage(ctx, r.image, turn, scale);
        }
        results.push(result);
      }
      // The call's safety checks held its first screen action; acknowledged once a person
      // approved it and it was sent, and only then.
      const approved =
        turn.checks.length > 0 &&
        turn.items.some(
          (item) =>
            item.step !== undefined &&
            ctx.history.find((h) => h.n === item.step)?.outcome === 'sent_after_approval',
        );
      exchanges.push({
        echo: turn.echo,
        callId: turn.callId,
        functionCalls: turn.functionCalls,
        results,
        screen:
          after.screen && !turn.collapsed
            ? await image(after.screen, screenLabel(after.step))
            : null,
        acknowledge: approved ? turn.checks : [],
        ask: askAfter(after.step, after.screen !== null),
        collapsed: turn.collapsed === true,
        // Prompt-cache breakpoints (Anthropic): this request's end, where the next one reads, and
        // the end of the one before, where this one reads (docs/models.md, Prompt caching).
        mark: i === turns.length - 1 || (i === turns.length - 2 && !collapsed),
      });
    }
    return {
      model: config.model,
      tool,
      instructions: redact(instructions(prompt)),
      intro: redact(intro(prompt)),
      timeline: before.map((h) => ({
        screen: null,
        line: redact(describeStep(h, scale, notes[String(h.n)])),
      })),
      current: await image(base.screen, screenLabel(base.step)),
      ask: askFirst(base.step, before.length > 0),
      // The conversation's start is where a request reads after answers were collapsed, and
      // where the first one after it reads (the others read the previous request's end).
      cache: {
        timeline: exchanges.length === 0,
        current: exchanges.length <= 1 || collapsed,
      },
      display: scale.model,
      continuation: null,
      outcome: null,
      acknowledge: [],
      exchanges,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
    };
  }

  /** A look's screen, or a zoom's region of it at native resolution. */
  private async resultImage(
    ctx: PlanningContext,
    ref: { screen: string; region?: Record<string, unknown> },
    turn: TurnRecord,
    scale: ScreenScale,
  ): Promise<ModelImage | undefined> {
    const label = 'The screen as it was then:';
    if (!ref.region) {
      const png = await this.images.stored(ctx.tenant, ref.screen, scale.model);
      return png ? { png, sha256: ref.screen, label } : undefined;
    }
    const item = turn.items.find((i) => i.screen === ref.screen && i.kind === 'zoom');
    const space = item?.space ?? scale.screen;
    const zoomed = await this.images.zoomed(
      ctx.tenant,
      ref.screen,
      space,
      ref.region as unknown as Rect,
      scale.model,
    );
    return zoomed
      ? { png: zoomed.png, sha256: ref.screen, label: 'The region:', size: zoomed.size }
      : undefined;
  }
}

/** A step that asked no model: its record says so (no tokens, no cost). */
function noCalls(config: ModelPlannerConfig) {
  return {
    provider: config.provider,
    model: config.model,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    latency_ms: 0,
    cost_usd: 0,
    calls: 0,
  };
}

/**
 * The answer's calls as the batch takes them, in the screen's coordinates, each after the first
 * with what the screen the model decided on showed where it lands. Calls past MAX_BATCH are not
 * executed.
 */
function itemsOf(calls: AnswerCall[], screen: ObservedScreen, scale: ScreenScale): ItemRecord[] {
  let decoded: ReturnType<typeof decodePng> | null = null;
  const decode = () => (decoded ??= decodePng(screen.png));
  return calls.map((call, i): ItemRecord => {
    const base = { id: call.id, toolset: call.toolset, note: null, seen: null };
    const move = call.move;
    let item: ItemRecord;
    if (move.kind === 'look') {
      item = { ...base, kind: 'look', answer: { action: 'screenshot' } };
    } else if (move.kind === 'zoom') {
      const [x0, y0, x1, y1] = move.region;
      const a = toScreen(scale, x0, y0);
      const b = toScreen(scale, x1, y1);
      item = {
        ...base,
        kind: 'zoom',
        answer: { action: 'zoom', region: { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y } },
      };
    } else {
      const { answer, note } = screenAnswer(move, scale);
      item = {
        ...base,
        kind: 'action',
        answer,
        note,
        seen: i > 0 ? targetSeen(screen, answer, decode) : null,
      };
    }
    if (i >= MAX_BATCH) {
      item.notExecuted = `Warden takes at most ${MAX_BATCH} calls of one answer`;
    }
    return item;
  });
}

/** The answer as it goes back, bounded: past MAX_ECHO_CHARS only its calls go back. */
function boundedEcho(echo: unknown[]): unknown[] {
  if (JSON.stringify(echo).length <= MAX_ECHO_CHARS) return echo;
  return echo.filter(
    (b) =>
      typeof b === 'object' &&
      b !== null &&
      ['tool_use', 'computer_call', 'function_call'].includes((b as { type?: string }).type ?? ''),
  );
}
