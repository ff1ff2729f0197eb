import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { plannerWorkerEnv } from './config/planner-worker-env';
import { runWorker } from './planner-worker/reference-worker';

const USAGE = `usage: npm run planner-worker -- --family <family> --base-url <OpenAI-compatible /v1 URL>
        [--model <model>] [--worker <name>] [--warden-url <url>] [--poll-ms <ms>]
  The reference worker of a remote planner family: answers the family's waiting steps from an
  OpenAI-compatible endpoint (the customer's own model). Environment:
    WARDEN_URL                 Warden's API (or --warden-url)
    WARDEN_PLANNER_TOKEN       an API token with planners.serve for the family
    PLANNER_MODEL_API_KEY      the endpoint's key (optional; many local servers need none)`;

/** The reference planner worker's entry point: its flags and environment, read here alone. */
async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      family: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      worker: { type: 'string' },
      'warden-url': { type: 'string' },
      'poll-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const env = plannerWorkerEnv();
  const wardenUrl = values['warden-url'] ?? env.wardenUrl;
  const token = env.token;
  if (values.help || !values.family || !values['base-url'] || !wardenUrl || !token) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const abort = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => abort.abort());
  const worker = values.worker ?? `${hostname()}-${process.pid}`;
  console.log(`planner worker ${worker} serving ${values.family} from ${values['base-url']}`);
  await runWorker(
    {
      wardenUrl,
      token,
      family: values.family,
      worker,
      baseUrl: values['base-url'],
      model: values.model ?? 'default',
      apiKey: env.modelApiKey,
      pollMs: Number(values['poll-ms'] ?? 1000),
      modelTimeoutMs: 120_000,
      log: (line) => console.log(line),
    },
    abort.signal,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
