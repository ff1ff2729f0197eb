import { Injectable, Logger } from '@nestjs/common';
import { loadRules, maskCardNumbersIn } from '../computer-use/actions';
import type {
  ModelUsage,
  PlanningContext,
  PlanResult,
  StepHistory,
} from '../computer-use/planner-contract/planner';
import type { ModelPlannerConfig, ModelProvider } from '../computer-use/settings/agent-config';
import {
  SecretGrants,
  SecretRefused,
  type SecretUse,
  valueForRedaction,
} from '../secrets/secret-grants.service';
import { addUsage, budgetProblem, costOf, type Usage } from './budget';
import { ModelImages } from './model-images';
import { type ModelPlannerState, readState, trimNotes } from './planner-state';
import { BudgetExhaustedError, describeFailure, ModelCallError } from './model-errors';
import {
  ask,
  instructions,
  intro,
  cacheBreakpoints,
  type PromptInput,
  screenLabel,
  stepLines,
} from './prompt';
import type { Continuation, Move, Provider, ProviderAnswer, SafetyCheck, Turn } from './provider';
import { anthropicProvider } from './providers/anthropic.provider';
import { openaiCompatibleProvider } from './providers/openai-compatible.provider';
import { openaiProvider } from './providers/openai.provider';
import { RetriesFailed, withRetries } from './retry';
import { insideModel, type ScreenScale, scaleFor, type Size, toScreen } from './scaling';
import { findSecret, redactor } from './secrets';
import { modelEndpoint } from './provider-urls';
import { priceProblem } from './usable';
import { UsageService } from './usage.service';

export const PROVIDERS: Readonly<Record<ModelProvider, Provider>> = Object.freeze({
  anthropic: anthropicProvider,
  openai: openaiProvider,
  'openai-compatible': openaiCompatibleProvider,
});

/** The longest answer a model may write for one action. */
export const MAX_OUTPUT_TOKENS = 1024;
/** `screenshot` answers (look again) one step may make before the next is refused. */
const MAX_LOOKS = 2;
/** A plan with what only model planners have: safety checks the provider raised. */
export interface ModelPlanResult extends PlanResult {
  safetyChecks: SafetyCheck[];
}

/** The model key as a secret to release: for the tenant, to the planner's endpoint (docs/screen-host.md). */
function keyUse(tenant: string, config: ModelPlannerConfig): SecretUse {
  return {
    tenant,
    envName: config.api_key_env,
    destination: modelEndpoint(config),
    what: `the model key (${config.provider} ${config.model})`,
  };
}

/**
 * The governed model call (docs/models.md): every planning call of a model planner goes through here.
 * Budget before each call; the prompt built from the run; screenshots downscaled and coordinates
 * mapped back exactly; nothing secret sent; bounded retries; a transcript of every call, with
 * usage counted in PostgreSQL; a provider's error body neither stored nor logged.
 */
@Injectable()
export class ModelsService {
  private readonly logger = new Logger(ModelsService.name);

  constructor(
    private readonly usage: UsageService,
    private readonly images: ModelImages,
    private readonly secrets: SecretGrants,
  ) {}

  /**
   * Why a run planned by this model cannot start, or null: its key not granted for its endpoint
   * (or not set), a cost cap without prices. Checked when a run starts, so that it is a clear
   * refusal and not a failed first step.
   */
  async reasonNotUsable(
    tenant: string,
    config: ModelPlannerConfig,
  ): Promise<{ message: string; reason?: string } | null> {
    const refused = await this.secrets.refusal(keyUse(tenant, config));
    if (refused) return { message: refused.message, reason: refused.reason };
    const price = priceProblem(config);
    return price ? { message: price } : null;
  }

  /**
   * The key, released for the planner's endpoint. Not granted (any more): the SecretRefused ends
   * the run `not_granted`; granted but unset on this host: a model error, as before any grants.
   */
  private async releaseKey(tenant: string, config: ModelPlannerConfig) {
    try {
      return await this.secrets.release(keyUse(tenant, config));
    } catch (error) {
      if (error instanceof SecretRefused && error.reason === 'unset') {
        throw new ModelCallError(error.message, { status: null, cause: 'not_configured' });
      }
      throw error;
    }
  }

  async plan(config: ModelPlannerConfig, ctx: PlanningContext): Promise<ModelPlanResult> {
    const provider = PROVIDERS[config.provider];
    const apiKey = (await this.releaseKey(ctx.tenant, config)).value;
    const screenTokenEnv = ctx.screenTokenEnv;
    const secrets = [
      { name: config.api_key_env, value: apiKey },
      {
        name: screenTokenEnv ?? 'the screen host token',
        value: screenTokenEnv ? valueForRedaction(screenTokenEnv) : undefined,
      },
    ];
    const redact = redactor(secrets.map((s) => s.value));
    const previous = readState(ctx.state, config.provider);
    const notes: Record<string, string> = { ...(previous?.notes ?? {}) };
    const rules = loadRules();

    let screen = ctx.screen;
    let { continuation, outcome, acknowledge } = this.continueFrom(previous, ctx.history);
    let usage: Usage = { input_tokens: 0, output_tokens: 0 };
    let cost: number | null = 0;
    let latency = 0;
    let calls = 0;
    for (let looks = 0; ; looks++) {
      await this.checkBudget(config, ctx);
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
        maxOutputTokens: MAX_OUTPUT_TOKENS,
      };
      const answer = await this.call(provider, config, ctx, turn, secrets, apiKey);
      calls++;
      usage = addUsage(usage, answer.usage);
      const callCost = costOf(answer.usage, config);
      cost = cost === null || callCost === null ? null : cost + callCost;
      latency += answer.latencyMs;

      let move: Move = answer.move;
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
      const action = this.toScreenAction(move, scale, notes, ctx.step);
      const state: ModelPlannerState = {
        provider: config.provider,
        step: ctx.step,
        // Kept only to acknowledge its safety checks, should a person approve the action.
        continuation: answer.continuation?.safety_checks.length ? answer.continuation : null,
        notes: trimNotes(notes),
      };
      const model: ModelUsage & { cost_usd: number | null; calls: number } = {
        provider: config.provider,
        model: config.model,
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        cache_read_tokens: usage.input_tokens === null ? null : (usage.cache_read_tokens ?? 0),
        cache_write_tokens: usage.input_tokens === null ? null : (usage.cache_write_tokens ?? 0),
        latency_ms: Math.round(latency),
        cost_usd: cost,
        calls,
      };
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

  /** The model's move as the engine takes it: an action in screen coordinates, or a refusal. */
  private toScreenAction(
    move: Move,
    scale: ScreenScale,
    notes: Record<string, string>,
    step: number,
  ): unknown {
    delete notes[String(step)];
    if (move.kind === 'look') return { action: 'screenshot' };
    const a = { ...(move.kind === 'refused' ? move.answer : move.action) };
    if (move.kind === 'refused') notes[String(step)] = move.note;
    if (Number.isSafeInteger(a.x) && Number.isSafeInteger(a.y)) {
      const x = a.x as number;
      const y = a.y as number;
      if (move.kind === 'action' && !insideModel(scale, x, y)) {
        // Mapped as it is: a point outside the image lands outside the screen, where the engine
        // refuses it. Never clamped. The model is told in its own coordinates.
        notes[String(step)] =
          `the point (${x}, ${y}) is outside the screenshot (${scale.model.width}x${scale.model.height})`;
      }
      Object.assign(a, toScreen(scale, x, y));
    }
    return a;
  }

  private async checkBudget(config: ModelPlannerConfig, ctx: PlanningContext): Promise<void> {
    if (
      config.max_tokens_per_run === null &&
      config.max_tokens_per_day === null &&
      config.max_cost_usd_per_run === null
    ) {
      return;
    }
    const [run, day] = await Promise.all([
      this.usage.runTotals(ctx.runId),
      this.usage.dayTotals(ctx.tenant, ctx.agent),
    ]);
    const problem = budgetProblem(config, run, day);
    if (problem) throw new BudgetExhaustedError(problem);
  }

  /** One call with retries, recorded in the transcript whatever happens. */
  private async call(
    provider: Provider,
    config: ModelPlannerConfig,
    ctx: PlanningContext,
    turn: Turn,
    secrets: Array<{ name: string; value: string | undefined }>,
    apiKey: string,
  ): Promise<ProviderAnswer & { latencyMs: number }> {
    const body = provider.request(turn);
    const images = new Map<string, { sha256: string } & Size>();
    const shown = turn.timeline.flatMap((e) => (e.screen ? [e.screen] : []));
    for (const image of [...shown, turn.current]) {
      const ref = { sha256: image.sha256, ...turn.display };
      images.set(image.png.toString('base64'), ref);
      images.set(`data:image/png;base64,${image.png.toString('base64')}`, ref);
    }
    const stored = transcriptOf(body, images);
    const base = {
      tenant: ctx.tenant,
      runId: ctx.runId,
      agent: ctx.agent,
      n: ctx.step,
      provider: config.provider,
      model: config.model,
      request: stored,
    };
    const leaked = findSecret(JSON.stringify(stored), secrets);
    if (leaked) {
      const failure = { status: null, cause: 'secret_in_request' as const };
      const message = `Warden did not send the model request: it would have contained the value of ${leaked}`;
      await this.usage.record({
        ...base,
        answer: null,
        error: { ...failure, message },
        attempts: [],
        usage: { input_tokens: null, output_tokens: null },
        costUsd: null,
        latencyMs: 0,
      });
      throw new ModelCallError(message, failure);
    }
    const started = performance.now();
    try {
      const { value, log } = await withRetries(
        () =>
          provider.send(body, {
            apiKey,
            baseURL: modelEndpoint(config),
            timeoutMs: config.timeout_seconds * 1000,
            signal: ctx.signal,
          }),
        { signal: ctx.signal },
      );
      const latencyMs = performance.now() - started;
      const answer = provider.read(value);
      await this.usage.record({
        ...base,
        answer: maskCardNumbersIn(JSON.parse(JSON.stringify(answer.record))) as Record<
          string,
          unknown
        >,
        error: null,
        attempts: log as unknown as Array<Record<string, unknown>>,
        usage: answer.usage,
        costUsd: costOf(answer.usage, config),
        latencyMs,
      });
      return { ...answer, latencyMs };
    } catch (error) {
      if (!(error instanceof RetriesFailed)) throw error;
      const latencyMs = performance.now() - started;
      await this.usage.record({
        ...base,
        answer: null,
        error: { ...error.failure, message: error.message },
        attempts: error.log as unknown as Array<Record<string, unknown>>,
        usage: { input_tokens: null, output_tokens: null },
        costUsd: null,
        latencyMs,
      });
      // Status and cause only: the provider's body can quote the prompt back.
      this.logger.warn(
        {
          run: ctx.runId,
          step: ctx.step,
          provider: config.provider,
          status: error.failure.status,
          cause: error.failure.cause,
          attempts: error.log.length,
        },
        `model call failed: ${describeFailure(error.failure)}`,
      );
      throw new ModelCallError(error.message, error.failure, error.log.length);
    }
  }
}

/**
 * The request as the transcript keeps it: every screenshot replaced by its SHA-256 and size, and
 * opaque encrypted reasoning by a marker.
 */
export function transcriptOf(
  body: Record<string, unknown>,
  images: Map<string, { sha256: string } & Size>,
): Record<string, unknown> {
  const text = JSON.stringify(body, (key, value: unknown) => {
    if (typeof value !== 'string') return value;
    const ref = images.get(value);
    if (ref) return { screen_sha256: ref.sha256, width: ref.width, height: ref.height };
    if (key === 'encrypted_content') return '[encrypted]';
    return value;
  });
  return JSON.parse(text) as Record<string, unknown>;
}
