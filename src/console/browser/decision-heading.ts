/**
 * The heading of a held write: the decision in one sentence, in the system's words
 * (change-words.ts `decisionSentence`), the biggest text on its page and the title of its inbox
 * entry. A typing the sentence would shorten or mark is shown in full with its marks instead: what
 * is typed is what a person approves.
 */
import { actionTitle } from './dom';
import { decisionSentence } from './change-words';
import { marked, shown } from './words';
import type { Action, Change, StagedEdit } from './api-types';

export function decisionHeading(o: {
  system: string | null | undefined;
  action: Action;
  why: string | null;
  changes?: Change[] | null;
  edit?: StagedEdit | null;
}): Array<string | Node> {
  const text = o.action.action === 'type' ? o.action.text : undefined;
  if (typeof text !== 'string') return [decisionSentence(o)];
  if (o.edit && shown(text, 40) === text && marked(text) === text) return [decisionSentence(o)];
  const system = o.system ? `${o.system} · ` : '';
  const into = o.edit ? ` into ${marked(o.edit.field.label)}` : '';
  const title = actionTitle(o.action, o.why).filter((c): c is string | Node =>
    typeof c === 'string' ? c !== '' : c instanceof Node,
  );
  return [system, ...title, into];
}
