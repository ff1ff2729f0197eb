/**
 * A step's model transcript on the run page: each model call, what it cost, what the model answered
 * and what Warden sent, loaded when a person opens it.
 */
import { api } from './api';
import { facts, h } from './dom';
import type { ModelCall, Transcript } from './api-types';

export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : String(error);

/**
 * A model call of a transcript: what it cost, what the model answered, what Warden sent (the
 * screens by SHA-256). Shown as text, never as HTML: a model's answer can say anything.
 */
function callView(call: ModelCall) {
  const known = (n: number | null) => (typeof n === 'number' ? String(n) : 'unknown');
  /** @param value */
  const json = (label: string, value: unknown) =>
    h('details', {}, h('summary', {}, label), h('pre', {}, JSON.stringify(value, null, 2)));
  return h(
    'section',
    { class: 'model-call' },
    h('h4', {}, `Call ${call.seq}: ${call.provider} ${call.model}`),
    facts([
      ['Tokens', `${known(call.input_tokens)} in / ${known(call.output_tokens)} out`],
      ['Cost', typeof call.cost_usd === 'number' ? `$${call.cost_usd.toFixed(4)}` : 'unknown'],
      ['Latency', `${call.latency_ms} ms`],
      ['Attempts', String(call.attempts.length || 1)],
      ['Error', call.error ? JSON.stringify(call.error) : null],
    ]),
    call.answer ? json('The answer', call.answer) : null,
    json('The request (screens by SHA-256)', call.request),
  );
}

/** The model's transcript of a step, loaded when a person opens it. */
export function transcriptDetails(runId: string, n: number) {
  const body = h('div', { class: 'transcript', 'aria-live': 'polite' }, 'Loading…');
  const details = h(
    'details',
    { class: 'step-transcript' },
    h('summary', {}, 'Model transcript'),
    body,
  );
  let loading = false;
  details.addEventListener('toggle', () => {
    if (!details.open || loading) return;
    loading = true;
    api<Transcript>(`/api/computer-use/runs/${runId}/steps/${n}/transcript`).then(
      (transcript) => {
        body.replaceChildren(
          ...(transcript.calls.length
            ? transcript.calls.map(callView)
            : [h('p', {}, 'No model calls were recorded for this step.')]),
        );
      },
      (error: unknown) => {
        loading = false; // opening it again tries again
        body.textContent = `Could not load the transcript: ${messageOf(error)}.`;
      },
    );
  });
  return details;
}
