/**
 * Commit-point approval (docs/security.md) for one judged step, as the engine asks it: under
 * `approve_at: "commit"`, a write that is an edit in a field is staged when everything about it is
 * known (actions/staging.ts); any other write carries the change list of what the run staged since
 * its last commit, read back on this screen. Under `every_write` every write is held; an edit
 * records its field and value before, and a commit lists the approved edits it stores. Pure.
 */
import {
  type Action,
  type Change,
  changeList,
  type OutlineElement,
  type Rules,
  type ScreenContext,
  stageEdit,
  type StagedEdit,
  type Verdict,
} from '../actions';
import type { StepHistory } from '../planner-contract/planner';
import type { ApproveAt } from '../settings/agent-config';

/** What commit-point approval makes of a write (docs/security.md); all null for every other step. */
export interface CommitPoint {
  /** The write is an edit to stage: sent without a person, recorded. */
  staged: StagedEdit | null;
  /** Why an edit is not staged (it is held as always), for its why. */
  notStaged: string | null;
  /** For a write that is held: what the run staged since its last commit. */
  changes: Change[] | null;
  /**
   * Under `every_write`, an edit held for a person: the field it goes into and its value before,
   * located as for staging (recorded on the step; the next commit's change list reads it).
   */
  edit?: StagedEdit | null;
  /**
   * Under `every_write`, for a held commit: what the edits approved since the last commit leave
   * it to store (its approval's change list). The why of the write does not change.
   */
  stores?: Change[] | null;
}

export function commitPoint(
  approveAt: ApproveAt,
  rules: Rules,
  verdict: Verdict,
  context: ScreenContext,
  outline: OutlineElement[] | null,
  history: readonly StepHistory[],
): CommitPoint {
  const none: CommitPoint = { staged: null, notStaged: null, changes: null };
  if (verdict.classification !== 'write') return none;
  const action = verdict.action as Action;
  const edit = stageEdit(action, context, rules, verdict.edit === true);
  const since = () =>
    changeList(
      history.map((h) => ({ ...h, staged: h.staged ?? null, edit: h.edit ?? null })),
      outline,
    );
  if (approveAt !== 'commit') {
    // Every write waits for a person. An edit says which field it changes and what it held; a
    // commit (a Save, an Enter), what the edits approved since the last commit leave it to store.
    if ('edit' in edit) return { ...none, edit: edit.edit };
    const stores = since();
    return { ...none, stores: stores.length > 0 ? stores : null };
  }
  if ('edit' in edit) return { ...none, staged: edit.edit };
  const changes = since();
  const editing =
    action.action === 'type' ||
    (action.action === 'key' && action.key === 'Backspace') ||
    verdict.edit === true;
  return {
    staged: null,
    notStaged: editing ? edit.notStaged : null,
    changes: changes.length > 0 ? changes : null,
  };
}
