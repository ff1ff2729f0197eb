/**
 * What the eval stands up and takes down: the bench's stack (a throwaway database through the
 * real migrations, a Redis prefix of its own, the API and the worker as processes, tokens and
 * grants made by the CLI), the suite's screen host (hosts.ts), and a fake model provider over real
 * HTTP for the recorded planner; and the agent's planner for each kind.
 */
import { randomBytes } from 'node:crypto';
import { startProcessStack, type ProcessStack } from '../../test/support/process-stack';
import { demoPlanner } from '../../src/computer-use/models/demo-planner';
import {
  anthropicMessage,
  startFakeProvider,
  type FakeProvider,
  type FakeReply,
  type Responder,
} from '../../test/support/fake-provider';
import { BATCHED_MODEL, batchingModel } from './batching-model';
import { EvalSim } from './eval-sim';
import { simHost, startX11Host, type EvalHost } from './hosts';
import type { RecordedAnswer, Task } from './task';

export const PLANNERS = ['scripted', 'recorded', 'batched', 'anthropic', 'openai'] as const;
export type PlannerKind = (typeof PLANNERS)[number];

/** The model the recorded answers are served as (config/model-tools.json: computer_20250124). */
export const RECORDED_MODEL = 'claude-sonnet-4-5';
/** The variable holding the recorded model's key (random per eval; the fake provider takes any). */
const RECORDED_KEY_ENV = 'WARDEN_EVAL_MODEL_KEY';
/** What the real providers' keys are called, and where they may go. */
export const REAL: Record<'anthropic' | 'openai', { env: string; origin: string }> = {
  anthropic: { env: 'ANTHROPIC_API_KEY', origin: 'https://api.anthropic.com' },
  openai: { env: 'OPENAI_API_KEY', origin: 'https://api.openai.com' },
};

export interface EvalStack {
  bench: ProcessStack<EvalSim>;
  host: EvalHost;
  fake: FakeProvider;
  /** Real providers whose key is set in this environment. */
  realKeys: Set<'anthropic' | 'openai'>;
  /** How long the fake model takes to answer, in ms (`--model-delay`): a real model's latency. */
  modelDelayMs: number;
  close(): Promise<void>;
}

/**
 * Warden, the fake provider and the suite's screen: `sim` (default) or `x11` (its screens as the
 * suite's `tasks` need them).
 */
export async function startEvalStack(
  log: (line: string) => void,
  suite = 'sim',
  tasks: Task[] = [],
  modelDelayMs = 0,
): Promise<EvalStack> {
  const x11 = suite === 'x11' ? await startX11Host(log, tasks) : null;
  const fake = await startFakeProvider();
  const env: Record<string, string> = { [RECORDED_KEY_ENV]: randomBytes(24).toString('hex') };
  const grants = [{ env: RECORDED_KEY_ENV, to: fake.url }];
  const realKeys = new Set<'anthropic' | 'openai'>();
  for (const [kind, real] of Object.entries(REAL) as Array<
    ['anthropic' | 'openai', typeof REAL.anthropic]
  >) {
    const key = process.env[real.env];
    if (!key) continue;
    realKeys.add(kind);
    env[real.env] = key;
    grants.push({ env: real.env, to: real.origin });
  }
  for (const secret of x11?.secrets ?? []) {
    env[secret.env] = secret.token;
    grants.push({ env: secret.env, to: secret.url });
  }
  try {
    const bench = await startProcessStack<EvalSim>({
      name: 'eval',
      hosts: x11 ? 0 : 1,
      workers: 1,
      workerConcurrency: 4,
      nodeFlags: [],
      keepDir: false,
      log,
      env,
      grants,
      makeSim: () => new EvalSim('en'),
    });
    const sim = bench.hosts[0] as ProcessStack<EvalSim>['hosts'][number] | undefined;
    return {
      bench,
      host: x11 ?? simHost(sim!, bench.tokenEnv),
      fake,
      realKeys,
      modelDelayMs,
      close: async () => {
        await bench.close();
        await fake.close();
        await x11?.close();
      },
    };
  } catch (error) {
    await fake.close();
    await x11?.close();
    throw error;
  }
}

export function ensure<T = any>(
  what: string,
  answer: { status: number; body: any },
  status = 200,
): T {
  if (answer.status !== status) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
  }
  return answer.body as T;
}

/** The recorded answer as Anthropic's Messages API sends it. */
export function reply(answer: RecordedAnswer): FakeReply {
  const content: unknown[] = [];
  if (answer.text) content.push({ type: 'text', text: answer.text });
  content.push({
    type: 'tool_use',
    id: `toolu_${randomBytes(6).toString('hex')}`,
    name: answer.tool,
    input: answer.input,
  });
  return anthropicMessage(content, answer.usage ?? null);
}

/** The reply after the fake model's latency. */
export function delayed(answer: FakeReply | Responder, ms: number): FakeReply | Responder {
  if (ms <= 0) return answer;
  return async (request, index) => {
    await new Promise((r) => setTimeout(r, ms));
    return typeof answer === 'function' ? answer(request, index) : answer;
  };
}

/** The agent's planner field for this task and kind. */
export async function plannerFor(
  stack: EvalStack,
  task: Task,
  kind: PlannerKind,
): Promise<unknown> {
  const { bench, fake } = stack;
  if (kind === 'scripted') {
    if (!task.script) throw new Error(`task ${task.name} has no script.json`);
    const created = ensure<{ planner: { id: string } }>(
      'POST /api/planners/scripted',
      await bench.call('POST', '/api/planners/scripted', bench.tokens.admin, {
        name: `eval ${task.name} ${randomBytes(3).toString('hex')}`,
        script: task.script,
      }),
      201,
    );
    return created.planner.id;
  }
  if (kind === 'recorded') {
    if (task.recorded.length === 0) throw new Error(`task ${task.name} has no recorded.json`);
    fake.script(
      task.recorded.map((answer) => delayed(reply(answer), stack.modelDelayMs)),
      // A model asked more often than the recording answered: say so in the run, and give up.
      reply({ tool: 'fail', input: { reason: 'the recording has no further answer' } }),
    );
    return {
      provider: 'anthropic',
      // The recordings are answers of the single computer tool: a model the table gives it.
      model: RECORDED_MODEL,
      api_key_env: RECORDED_KEY_ENV,
      base_url: fake.url,
      // Prices of the model the answers were recorded as (USD per million tokens).
      price_per_mtok_in: 3,
      price_per_mtok_out: 15,
    };
  }
  if (kind === 'batched') {
    if (task.recorded.length === 0) throw new Error(`task ${task.name} has no recorded.json`);
    // Every request is answered by the batching model, which reads what became of its last turn.
    fake.script([], batchingModel(task.recorded, stack.modelDelayMs));
    return {
      provider: 'anthropic',
      model: BATCHED_MODEL,
      api_key_env: RECORDED_KEY_ENV,
      base_url: fake.url,
      price_per_mtok_in: 3,
      price_per_mtok_out: 15,
    };
  }
  const config = demoPlanner({ [REAL[kind].env]: process.env[REAL[kind].env] });
  if (!config) throw new Error(`${REAL[kind].env} is not set`);
  return config;
}
