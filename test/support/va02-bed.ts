/**
 * The VA02 change as the runs e2e tests set it up: the stack (API, worker, the sim host with its
 * outline, for tenant acme), a second sim host without an outline (`blind`, granted the same way),
 * an auditor's token, the VA02 script up to the date typed, and the run's audit events by type.
 */
import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import { startSimHost, startStack, type SimHost, type Stack } from './stack';

export interface AuditItem {
  type: string;
  step: number;
  details: Record<string, any>;
}

export interface Va02Bed {
  stack: Stack;
  /** A sim host that serves no outline (`--no-elements`). */
  blind: SimHost;
  /** A token of aud, with audit.read. */
  auditor: string;
  /** The run's audit events of exactly `type`, in step order. */
  audit(runId: string, type: string): Promise<AuditItem[]>;
  /** Both sims back on their first screen (before each test). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startVa02Bed(): Promise<Va02Bed> {
  const stack = await startStack();
  let blind: SimHost | undefined;
  let auditor: string;
  try {
    blind = await startSimHost({ elements: false });
    await stack.grant(blind.tokenEnv, blind.url);
    auditor = (await stack.api.token('acme', 'aud', ['audit.read'])).token;
  } catch (error) {
    await stack.close();
    await blind?.close();
    throw error;
  }
  return {
    stack,
    blind,
    auditor,
    audit: async (runId, type) => {
      const r = await stack.api.request(
        'GET',
        `/api/audit?run_id=${runId}&type=${type}&limit=200`,
        { token: auditor },
      );
      if (r.status !== 200) throw new Error(`GET /api/audit: ${r.status} ${r.text}`);
      return (r.body.items as AuditItem[])
        .filter((e) => e.type === type)
        .sort((a, b) => a.step - b.step);
    },
    reset: async () => {
      await stack.sim.reset();
      await blind.reset();
    },
    close: async () => {
      await stack.close();
      await blind.close();
    },
  };
}

/** The VA02 example script up to the order's overview, `date` typed into Req. Deliv. Date, then `after`. */
export function va02Script(date: string, after: unknown[] = []) {
  return {
    patience: 10,
    steps: [
      ...VA02_EXAMPLE_SCRIPT.steps.slice(0, 7),
      { action: { action: 'type', text: date } },
      ...after,
    ],
  };
}
