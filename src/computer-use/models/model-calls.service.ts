import { Injectable, Logger } from '@nestjs/common';
import { maskCardNumbersIn } from '../actions';
import type { ModelUsage, PlanningContext } from '../planner-contract/planner';
import type { ModelPlannerConfig } from '../settings/agent-config';
import {
  SecretGrants,
  SecretRefused,
  type SecretUse,
  valueForRedaction,
} from '../../secrets/secret-grants.service';
import { addUsage, budgetProblem, costOf, type Usage } from './budget';
import { BudgetExhaustedError, describeFailure, ModelCallError } from './model-errors';
import type { Provider, ProviderAnswer, Turn } from './provider';
import { modelEndpoint } from '../../config/provider-urls';
import { RetriesFailed, withRetries } from './retry';
import type { Size } from './scaling';
import { findSecret, redactor } from './secrets';
import { UsageService } from './usage.service';

/** The model key as a secret to release: for the tenant, to the planner's endpoint (docs/screen-host.md). */
export function keyUse(tenant: string, config: ModelPlannerConfig): SecretUse {
  return {
    tenant,
    envName: config.api_key_env,
    destination: modelEndpoint(config),
    what: `the model key (${config.provider} ${config.model})`,
  };
}

/** What one step's calls share: the released key, what must never be sent, and its scrubber. */
export interface CallSession {
  apiKey: string;
  secrets: Array<{ name: string; value: string | undefined }>;
  redact: (text: string) => string;
}

/** The usage of a step's calls, added up. */
export class CallTally {
  usage: Usage = { input_tokens: 0, output_tokens: 0 };
  cost: number | null = 0;
  latency = 0;
  calls = 0;

  add(answer: ProviderAnswer & { latencyMs: number }, config: ModelPlannerConfig): void {
    this.calls++;
    this.usage = addUsage(this.usage, answer.usage);
    const callCost = costOf(answer.usage, config);
    this.cost = this.cost === null || callCost === null ? null : this.cost + callCost;
    this.latency += answer.latencyMs;
  }

  /** The step's `model` record. */
  record(config: ModelPlannerConfig): ModelUsage & { cost_usd: number | null; calls: number } {
    const u = this.usage;
    return {
      provider: config.provider,
      model: config.model,
      input_tokens: u.input_tokens,
      output_tokens: u.output_tokens,
      cache_read_tokens: u.input_tokens === null ? null : (u.cache_read_tokens ?? 0),
      cache_write_tokens: u.input_tokens === null ? null : (u.cache_write_tokens ?? 0),
      latency_ms: Math.round(this.latency),
      cost_usd: this.cost,
      calls: this.calls,
    };
  }
}

/**
 * One call to a model, governed (docs/models.md): the key released for the planner's endpoint only,
 * the budget checked before, nothing secret sent, bounded retries, and the call written to the
 * step's transcript whatever happens, with its usage counted in PostgreSQL; a provider's error body
 * neither stored nor logged.
 */
@Injectable()
export class ModelCalls {
  private readonly logger = new Logger(ModelCalls.name);

  constructor(
    private readonly usage: UsageService,
    private readonly secrets: SecretGrants,
  ) {}

  /**
   * The key, released for the planner's endpoint, and the values no request may carry. Not granted
   * (any more): the SecretRefused ends the run `not_granted`; granted but unset on this host: a
   * model error, as before any grants.
   */
  async open(config: ModelPlannerConfig, ctx: PlanningContext): Promise<CallSession> {
    let apiKey: string;
    try {
      apiKey = (await this.secrets.release(keyUse(ctx.tenant, config))).value;
    } catch (error) {
      if (error instanceof SecretRefused && error.reason === 'unset') {
        throw new ModelCallError(error.message, { status: null, cause: 'not_configured' });
      }
      throw error;
    }
    const screenTokenEnv = ctx.screenTokenEnv;
    const secrets = [
      { name: config.api_key_env, value: apiKey },
      {
        name: screenTokenEnv ?? 'the screen host token',
        value: screenTokenEnv ? valueForRedaction(screenTokenEnv) : undefined,
      },
    ];
    return { apiKey, secrets, redact: redactor(secrets.map((s) => s.value)) };
  }

  async checkBudget(config: ModelPlannerConfig, ctx: PlanningContext): Promise<void> {
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
  async call(
    provider: Provider,
    config: ModelPlannerConfig,
    ctx: PlanningContext,
    turn: Turn,
    session: CallSession,
  ): Promise<ProviderAnswer & { latencyMs: number }> {
    const body = provider.request(turn);
    const stored = transcriptOf(body, imageRefs(turn));
    const base = {
      tenant: ctx.tenant,
      runId: ctx.runId,
      agent: ctx.agent,
      n: ctx.step,
      provider: config.provider,
      model: config.model,
      request: stored,
    };
    const leaked = findSecret(JSON.stringify(stored), session.secrets);
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
            apiKey: session.apiKey,
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

/** Every image of a request by its base64 (and data URL): what the transcript names it by. */
function imageRefs(turn: Turn): Map<string, { sha256: string } & Size> {
  const images = new Map<string, { sha256: string } & Size>();
  const shown = turn.timeline.flatMap((e) => (e.screen ? [e.screen] : []));
  for (const e of turn.exchanges) {
    if (e.screen) shown.push(e.screen);
    for (const r of e.results) if (r.image) shown.push(r.image);
  }
  for (const image of [...shown, turn.current]) {
    const ref = { sha256: image.sha256, ...(image.size ?? turn.display) };
    images.set(image.png.toString('base64'), ref);
    images.set(`data:image/png;base64,${image.png.toString('base64')}`, ref);
  }
  return images;
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
