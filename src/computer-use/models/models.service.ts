import { Injectable } from '@nestjs/common';
import { loadRules } from '../actions';
import type { PlanningContext, StepHistory } from '../planner-contract/planner';
import type { ModelPlannerConfig } from '../settings/agent-config';
import { BATCH_TOOLS, toolOf, unknownModel } from '../../config/model-tools';
import { SecretGrants } from '../../secrets/secret-grants.service';
import { BatchTurns } from './batch-turns.service';
import { CallTally, keyUse, ModelCalls } from './model-calls.service';
import { ModelImages } from './model-images';
import { type ModelPlannerState, readState, trimNotes } from './planner-state';
import { ModelCallError } from './model-errors';
import {
  ask,
  instructions,
  intro,
  cacheBreakpoints,
  type PromptInput,
  screenLabel,
  stepLines,
} from './prompt';
import type { Continuation, ModelPlanResult, Move, SafetyCheck, Turn } from './provider';
import { PROVIDERS } from './providers/registry';
import { scaleFor } from './scaling';
import { toScreenAction } from './screen-moves';
import { priceProblem } from './usable';

export { PROVIDERS };

/** The longest answer a model may write for one action. */
export const MAX_OUTPUT_TOKENS = 1024;
/** `screenshot` answers (look again) one step may make before the next is refused. */
export const MAX_LOOKS = 2;
export type { ModelPlanResult };

/**
 * The governed model call (docs/models.md): every planning call of a model planner goes through here.
 * Budget before each call; the prompt built from the run; screenshots downscaled and coordinates
 * mapped back exactly; nothing secret sent; bounded retries; a transcript of every call, with
 * usage counted in PostgreSQL; a provider's error body neither stored nor logged. The computer-use
 * tool follows the model (config/model-tools.json); a tool whose answers hold several actions (a
 * batch) is planned by BatchTurns, one action a step.
 */
@Injectable()
export class ModelsService {
  constructor(
    private readonly calls: ModelCalls,
    private readonly images: ModelImages,
    private readonly secrets: SecretGrants,
    private readonly batches: BatchTurns,
  ) {}

  /**
   * Why a run planned by this model cannot start, or null: its key not granted for its endpoint
   * (or not set), a cost cap without prices, a model whose tool Warden does not know. Checked when
   * a run starts, so that it is a clear refusal and not a failed first step.
   */
  async reasonNotUsable(
    tenant: string,
    config: ModelPlannerConfig,
  ): Promise<{ message: string; reason?: string } | null> {
    const refused = await this.secrets.refusal(keyUse(tenant, config));
    if (refused) return { message: refused.message, reason: refused.reason };
    const noTool = unknownModel(config.provider, config.model);
    if (noTool) return { message: noTool };
    const price = priceProblem(config);
    return price ? { message: price } : null;
  }

  async plan(config: ModelPlannerConfig, ctx: PlanningContext): Promise<ModelPlanResult> {
    const tool = toolOf(config.provider, config.model);
    // A config from before the table, naming a model it does not know: never sent blind.
    if (!tool)
      throw new ModelCallError(unknownModel(config.provider, config.model)!, {
        status: null,
        cause: 'not_configured',
      });
    if (BATCH_TOOLS.has(tool)) return this.batches.plan(config, tool, ctx);
    const provider = PROVIDERS[config.provider];
    const previous = readState(ctx.state, config.provider);
    const notes: Record<string, string> = { ...(previous?.notes ?? {}) };
    const rules = loadRules();
    const session = await this.calls.open(config, ctx);
    const { redact } = session;

    let screen = ctx.screen;
    let { continuation, outcome, acknowledge } = this.continueFrom(previous, ctx.history);
    const tally = new CallTally();
    for (let looks = 0; ; looks++) {
      await this.calls.checkBudget(config, ctx);
      const scale = scaleFor({ width: screen.width, height: screen.height });
      const prompt: PromptInput = {
        goal: ctx.goal,
        system: ctx.system,
        step: ctx.step,
        history: ctx.history,
        scale,
        notes,
        rules,
        format: config.provider === 'openai-compatible' ? 'json' : 'tools',
      };
      const shown = await this.images.timeline(ctx, config.history_screens, scale.model);
      const lines = stepLines(prompt);
      const turn: Turn = {
        model: config.model,
        tool,
        instructions: redact(instructions(prompt)),
        intro: redact(intro(prompt)),
        timeline: lines.map((line, i) => ({ screen: shown.get(i) ?? null, line: redact(line) })),
        current: {
          png: await this.images.scaled(screen.sha256, screen.png, scale.model),
          sha256: screen.sha256,
          label: screenLabel(ctx.step),
        },
        ask: ask(prompt, looks > 0),
        cache: cacheBreakpoints(ctx.history.length, config.history_screens),
        display: scale.model,
        continuation,
        outcome: outcome ? { ...outcome, text: redact(outcome.text) } : null,
        acknowledge,
        exchanges: [],
        maxOutputTokens: MAX_OUTPUT_TOKENS,
      };
      const answer = await this.calls.call(provider, config, ctx, turn, session);
      tally.add(answer, config);

      let move: Move = answer.move;
      // A zoom belongs to the toolset: the single tools are not offered it.
      if (move.kind === 'zoom') {
        move = { kind: 'refused', answer: { action: 'zoom' }, note: 'There is no zoom here.' };
      }
      if (move.kind === 'look') {
        if (looks < MAX_LOOKS) {
          screen = await ctx.look();
          continuation = null;
          outcome = null;
          acknowledge = [];
          continue;
        }
        move = {
          kind: 'refused',
          answer: { action: 'screenshot' },
          note: `You asked to look again ${MAX_LOOKS + 1} times in one step; the screenshot you have is current. Choose an action.`,
        };
      }
      const action = toScreenAction(move, scale, notes, ctx.step);
      const state: ModelPlannerState = {
        provider: config.provider,
        step: ctx.step,
        // Kept only to acknowledge its safety checks, should a person approve the action.
        continuation: answer.continuation?.safety_checks.length ? answer.continuation : null,
        notes: trimNotes(notes),
      };
      const model = tally.record(config);
      return {
        action,
        state,
        ...(screen !== ctx.screen ? { screen } : {}),
        model,
        safetyChecks: move.kind === 'action' ? answer.safetyChecks : [],
      };
    }
  }

  /**
   * Whether this step continues the model's previous answer, and what to say about it. Only one
   * kind is: an OpenAI call with safety checks a person approved, whose output must acknowledge
   * them. Every other step is told what became of the last one in its line of the timeline, so
   * that the request is the previous one's plus what happened since, and the provider's prompt
   * cache hits (issue 18 §3). A call with checks that was not approved is never continued.
   */
  private continueFrom(
    state: ModelPlannerState | null,
    history: StepHistory[],
  ): {
    continuation: Continuation | null;
    outcome: { text: string; error: boolean } | null;
    acknowledge: SafetyCheck[];
  } {
    const none = { continuation: null, outcome: null, acknowledge: [] };
    const last = history[history.length - 1];
    const c = state?.continuation;
    if (!c || !last || state.step !== last.n) return none;
    if (last.outcome !== 'sent_after_approval' || c.safety_checks.length === 0) return none;
    return {
      continuation: c,
      outcome: { text: 'A person approved the action and it was sent.', error: false },
      acknowledge: c.safety_checks,
    };
  }
}
