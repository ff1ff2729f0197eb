import { openaiCompatibleProvider } from '../computer-use/models/providers/openai-compatible.provider';
import { answerOf, turnOf, withoutImages, type WorkInput } from './worker-turn';

/** What Warden's worker API answers, as far as the worker reads it. */
interface Answer {
  message?: string;
  items?: Array<{ id: string }>;
  work?: { step: number; run_id: string; input: WorkInput };
}

export interface WorkerOptions {
  /** Warden's API, e.g. https://warden.example.com. */
  wardenUrl: string;
  /** An API token holding planners.serve for the family. */
  token: string;
  family: string;
  worker: string;
  /** The OpenAI-compatible endpoint (its /v1), and its model and key. */
  baseUrl: string;
  model: string;
  apiKey: string;
  pollMs: number;
  modelTimeoutMs: number;
  log: (line: string) => void;
}

/**
 * The reference planner worker (issue 28 §2): asks Warden for its family's waiting steps (asking
 * is its heartbeat, kept up while it thinks), claims one at a time, asks the OpenAI-compatible
 * model through the project's provider code, and answers the decision, or an error code when
 * the model cannot be reached. Stops when `signal` aborts.
 */
export async function runWorker(options: WorkerOptions, signal: AbortSignal): Promise<void> {
  const { wardenUrl, token, family, worker } = options;
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, wardenUrl), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Answer | null };
  };
  const ask = () =>
    api(
      'GET',
      `/api/planner-work?families=${encodeURIComponent(family)}&worker=${encodeURIComponent(worker)}`,
    );
  // The heartbeat goes on while a step is being decided (a model may take longer than 30 s).
  const beat = setInterval(() => void ask().catch(() => undefined), Math.max(options.pollMs, 1000));
  try {
    while (!signal.aborted) {
      const listed = await ask().catch((error: unknown) => {
        options.log(`asking Warden failed: ${(error as Error).message}`);
        return null;
      });
      if (listed && listed.status !== 200) {
        options.log(`Warden answered ${listed.status}: ${listed.body?.message ?? ''}`);
      }
      const items = listed?.status === 200 ? (listed.body?.items ?? []) : [];
      for (const item of items) {
        if (signal.aborted) break;
        const claimed = await api('POST', `/api/planner-work/${item.id}/claim`, { worker });
        const work = claimed.body?.work;
        if (claimed.status !== 200 || !work) continue; // another worker won
        const answer = await decide(work.input, options, signal);
        const sent = await api('POST', `/api/planner-work/${item.id}/answer`, {
          worker,
          ...answer,
        });
        options.log(`answered step ${work.step} of run ${work.run_id}: ${sent.status}`);
      }
      await sleep(options.pollMs, signal);
    }
  } finally {
    clearInterval(beat);
  }
}

async function decide(
  input: WorkInput,
  options: WorkerOptions,
  signal: AbortSignal,
): Promise<{ decision: unknown } | { error: string }> {
  const provider = openaiCompatibleProvider;
  const { turn, withImage } = turnOf(input, options.model);
  const request = provider.request(turn);
  try {
    const raw = await provider.send(withImage ? request : withoutImages(request), {
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      timeoutMs: options.modelTimeoutMs,
      signal,
    });
    return answerOf(provider.read(raw));
  } catch (error) {
    // A code, never the provider's text (it could quote the step's input back).
    const status = (error as { status?: unknown }).status;
    options.log(`the model failed: ${typeof status === 'number' ? status : 'no answer'}`);
    return { error: typeof status === 'number' ? `model_http_${status}` : 'model_unreachable' };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
