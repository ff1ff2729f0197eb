import { isEnded, type SimHost, type Stack } from './stack';

/** A script whose one write is typing a transaction code into the command field (held). */
export const ONE_WRITE = {
  steps: [
    { action: { action: 'click', element: { role: 'textbox', name: 'Command field' } } },
    { step: 'the write', action: { action: 'type', text: '/nVA03' } },
    { action: { action: 'done', summary: 'typed' } },
  ],
};

/** Starts a run and waits for its write to be held: the run and the approval. */
export async function heldWrite(stack: Stack): Promise<{ runId: string; approvalId: string }> {
  const run = await stack.start();
  const waiting = await stack.waitFor(
    run.id,
    (r) => r.status === 'awaiting_approval' || isEnded(r),
  );
  if (waiting.status !== 'awaiting_approval') {
    throw new Error(`the write was not held: the run is ${waiting.status} (${waiting.end_reason})`);
  }
  return { runId: run.id, approvalId: waiting.pending_approval.id };
}

/** A step of a run as `GET …/runs/{id}` records it, as far as the x11 suites read it. */
export interface RecordedStep {
  action: any;
  classification: string;
  why: string;
  outcome: string;
  label_evidence?: any;
}

export interface Approved {
  run: any;
  /** The steps a person had to approve, in order. */
  held: Array<{ n: number; action: unknown; why: string; changes: any[] | null }>;
}

/**
 * Starts a run of `agent` and carries it to its end, approving (as another person) and resuming
 * every write it holds, through the real API.
 */
export async function runApprovingEveryWrite(stack: Stack, agent: string): Promise<Approved> {
  const started = await stack.start('change order 4711', agent);
  return approveEveryWrite(stack, started.id);
}

/** Carries a run to its end, approving (as another person) and resuming every write it holds. */
export async function approveEveryWrite(stack: Stack, runId: string): Promise<Approved> {
  const held: Approved['held'] = [];
  let last: string | null = null;
  for (;;) {
    const run = await stack.waitFor(
      runId,
      (r) => isEnded(r) || (r.status === 'awaiting_approval' && r.pending_approval?.id !== last),
      60_000,
    );
    if (isEnded(run)) return { run, held };
    const approval = run.pending_approval;
    held.push({
      n: approval.step,
      action: approval.action,
      why: approval.why,
      changes: approval.changes ?? null,
    });
    last = approval.id;
    const approved = await stack.api.request('POST', `/api/approvals/${approval.id}/approve`, {
      token: stack.tokens.approver,
      json: {},
    });
    if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${approved.text}`);
    const resumed = await stack.api.request('POST', `/api/computer-use/runs/${runId}/resume`, {
      token: stack.tokens.operator,
    });
    if (resumed.status !== 200) throw new Error(`resume: ${resumed.status} ${resumed.text}`);
  }
}

/** What a sim saved: one event per save, with the order's fields. */
export async function saves(sim: SimHost) {
  return (await sim.events()).filter((e) => e.type === 'saved');
}
