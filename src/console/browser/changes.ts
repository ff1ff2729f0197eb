/**
 * The change list of a held commit (commit-point approval): the typing a run staged since its last
 * commit reached the screen without a person, and this commit (a Save, an Enter) stores it. The
 * approver reads it as a table, field by field, above the screenshot, and sees the changed fields
 * outlined on it. Values are shown as typed text is (dom.ts typedText): in full, with every
 * character a person could not see marked.
 */
import { h, s, typedText } from './dom';
import {
  changeInWords,
  changesHeading,
  editMode,
  isNavigation,
  isUnchanged,
  openedInWords,
} from './change-words';
import { marked } from './words';
import type { Approval, Change, StagedEdit, Step } from './api-types';

/** A value of a field: typed text in full, `(not read)` when nothing read it, `(empty)`. */
export function fieldValue(text: string | null) {
  if (text === null) return h('span', { class: 'change-none' }, '(not read)');
  if (text === '') return h('span', { class: 'change-none' }, '(empty)');
  const typed = typedText(text);
  // A field's value (a date, an amount) is read whole: it never breaks across lines. A long text
  // still wraps, or it would run off a phone's screen.
  if ([...text].length <= 40 && !/\s/.test(text)) typed.classList.add('typed-whole');
  return typed;
}

/**
 * What the commit stores in the field: the value read back from the held screen, flagged when it
 * is not what was typed (insert mode, a field that reformats) or could not be read back, in which
 * case the typed value is all there is to show.
 */
function afterCell(c: Change) {
  const cell = h('td', { class: 'change-after' });
  if (c.read_back_check === 'earlier') {
    // The application took it on an earlier screen: not in doubt, so not flagged red.
    cell.append(
      fieldValue(c.after),
      ' ',
      h('span', { class: 'change-note' }, 'typed on an earlier screen'),
    );
  } else if (c.read_back_check === 'unexplained') {
    cell.append(
      fieldValue(c.read_back),
      ' ',
      h('span', { class: 'change-flag' }, 'changed without a typed edit'),
    );
  } else if (c.read_back_check === 'unread') {
    cell.append(fieldValue(c.after), ' ', h('span', { class: 'change-flag' }, 'not read back'));
  } else {
    cell.append(fieldValue(c.read_back));
    if (isUnchanged(c)) cell.append(' ', h('span', { class: 'change-same' }, 'unchanged'));
    if (c.read_back_check === 'differs') {
      cell.append(' ', h('span', { class: 'change-flag' }, 'typed “', fieldValue(c.after), '”'));
    }
  }
  return cell;
}

/**
 * What a held typing does to its field, before → after, as a one-row table like a commit's change
 * list: the field's value now (the screen host's outline), and whether the text replaces it or is
 * added to it. Null when nothing placed the field (the screenshot's marks are all there is).
 * @param text the text typed
 * @param o `id`: the heading's (unique on the page: the
 *   inbox lists several); `explain`: the lines under the table (the approval page; not the inbox)
 */
export function editList(
  edit: StagedEdit | null | undefined,
  text: string,
  level: 'h2' | 'h3',
  o: { id?: string; explain?: boolean } = {},
) {
  if (!edit) return null;
  const titleId = o.id ?? 'edit-title';
  const mode = editMode(edit);
  const after = h('td', { class: 'change-after' });
  if (mode === 'replaces' || mode === 'empty') {
    after.append(fieldValue(text));
    if (edit.before === text) after.append(' ', h('span', { class: 'change-same' }, 'unchanged'));
  } else if (mode === 'adds') {
    after.append(
      fieldValue(edit.before),
      ' ',
      h('span', { class: 'change-flag' }, 'and “', fieldValue(text), '” added at the cursor'),
    );
  } else {
    after.append(
      fieldValue(text),
      ' ',
      h('span', { class: 'change-flag' }, 'replaces or is added to what the field holds'),
    );
  }
  const says: Record<string, string> = {
    replaces: 'The field’s content is selected, so the text replaces it.',
    empty: 'The field is empty.',
    adds: 'The screen host does not say the field’s content is selected, so the text goes in at the cursor, beside what is there.',
    unread: 'The screen host does not say what the field holds.',
  };
  return h(
    'section',
    { class: 'change-list edit-list', 'data-mode': mode, 'aria-labelledby': titleId },
    h(level, { id: titleId }, `This typing changes “${marked(edit.field.label)}”`),
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Field'),
          h('th', { scope: 'col' }, 'Before'),
          h('th', { scope: 'col' }, 'After'),
        ),
      ),
      h(
        'tbody',
        {},
        h(
          'tr',
          { 'data-field': edit.field.label },
          h('th', { scope: 'row' }, marked(edit.field.label)),
          h('td', {}, fieldValue(edit.before)),
          after,
        ),
      ),
    ),
    o.explain === false
      ? null
      : h(
          'p',
          { class: 'help' },
          `${says[mode]} Typing puts it on the screen; the application stores it with the next commit (a Save), which is held for a person too.`,
        ),
  );
}

/**
 * The change list of a held commit as a table with its heading, or null for an approval without
 * one (a commit with nothing edited before it since the last commit).
 * @param o
 *   `explain`: the lines under the table (the approval page); the inbox shows the table alone;
 *   `steps`: the run's, to tell edits a person approved from staged ones
 */
export function changeList(
  approval: Approval,
  o: { level: 'h2' | 'h3'; explain: boolean; steps?: Step[] },
) {
  const all = approval.changes ?? [];
  if (!all.length) return null;
  // Navigation (the order number that opened the order) is said in grey, not counted or listed
  // as a change; only the server's word makes a line navigation.
  const changes = all.filter((c) => !isNavigation(c));
  const opened = all.filter(isNavigation);
  const titleId = `changes-${approval.id}`;
  const section = h(
    'section',
    { class: 'change-list', 'aria-labelledby': titleId },
    h(
      o.level,
      { id: titleId },
      changesHeading(
        approval.action,
        approval.why,
        changes.filter((c) => !isUnchanged(c)).length,
        changes.filter(isUnchanged).length,
      ),
    ),
    ...opened.map((c) =>
      h(
        'p',
        { class: 'change-navigation', 'data-field': c.field, title: changeInWords(c) },
        openedInWords(c),
      ),
    ),
  );
  if (changes.length) section.append(changeTable(changes));
  if (!o.explain) return section;
  appendHelp(section, changes, opened, o.steps ?? []);
  return section;
}

/** The stored changes as a table: field, before, after. */
function changeTable(changes: Change[]) {
  return h(
    'table',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Field'),
        h('th', { scope: 'col' }, 'Before'),
        h('th', { scope: 'col' }, 'After'),
      ),
    ),
    h(
      'tbody',
      {},
      ...changes.map((c) =>
        h(
          'tr',
          { 'data-field': c.field, 'data-check': c.read_back_check },
          h('th', { scope: 'row' }, marked(c.field)),
          h('td', {}, fieldValue(c.before)),
          afterCell(c),
        ),
      ),
    ),
  );
}

/**
 * The line under the table on the approval page: who typed the changes and what After is, in one
 * sentence; then only what is in doubt, each in one more. Navigation is the grey line's.
 */
function appendHelp(section: HTMLElement, changes: Change[], opened: Change[], steps: Step[]) {
  const names = (some: Change[]) => some.map((c) => `“${marked(c.field)}”`).join(', ');
  if (!changes.length) {
    section.append(
      h(
        'p',
        { class: 'help' },
        `${names(opened)} only opened this screen: navigation, not a change.`,
      ),
    );
    return;
  }
  const outlined = changes.filter(isOnScreen);
  const unread = changes.filter((c) => c.read_back_check === 'unread');
  const earlier = changes.filter((c) => c.read_back_check === 'earlier');
  const unexplained = changes.filter((c) => c.read_back_check === 'unexplained');
  const outcomes = new Map(steps.map((st) => [st.n, st.outcome]));
  const approved = changes.filter((c) => outcomes.get(c.step) === 'sent_after_approval');
  const staged = changes.filter((c) => outcomes.get(c.step) === 'staged');
  const how =
    approved.length > 0 && staged.length === 0
      ? 'Typed earlier in this run, each approved by a person'
      : approved.length > 0
        ? `Typed earlier in this run, ${names(approved)} approved by a person, the rest without one`
        : 'Typed earlier in this run without a person';
  section.append(
    h(
      'p',
      { class: 'help' },
      `${how}; After is read back from this screen${outlined.length ? ', outlined in green' : ''}.`,
      earlier.length
        ? ` ${names(earlier)}: typed on an earlier screen the application took, so After is what was typed there; counted as a change, since Warden cannot tell the run only moved on.`
        : '',
      unread.length
        ? ` Not read back: ${names(unread)} (not on this screen, or unreadable), so After is what was typed.`
        : '',
      unexplained.length
        ? ` The application marks ${names(unexplained)} changed, and this run typed nothing there: approve only if you know why.`
        : '',
    ),
  );
}

/**
 * Whether a change's field is known to be on the held screen: its value was read back there. The
 * rect of a field not read back, or typed on an earlier screen, is where it was there, so it is not
 * drawn.
 */
function isOnScreen(c: Change) {
  return c.rect !== null && ['same', 'differs', 'unexplained'].includes(c.read_back_check);
}

/**
 * The changed fields on the held screenshot: a solid green outline around each field read back on
 * it (the action keeps its red marks), named in its title.
 * @param overlay in the action's coordinate space
 */
export function drawChanges(overlay: SVGSVGElement, changes: Change[]) {
  for (const c of changes) {
    if (!isOnScreen(c) || !c.rect) continue;
    const pad = 4;
    const box = {
      'vector-effect': 'non-scaling-stroke',
      x: c.rect.x - pad,
      y: c.rect.y - pad,
      width: c.rect.width + 2 * pad,
      height: c.rect.height + 2 * pad,
    };
    overlay.append(
      s(
        'g',
        {
          class: 'change-outline',
          'data-field': c.field,
          'data-x': c.rect.x,
          'data-y': c.rect.y,
          'data-width': c.rect.width,
          'data-height': c.rect.height,
        },
        s('title', {}, changeInWords(c)),
        s('rect', { ...box, class: 'halo' }),
        s('rect', { ...box, class: 'line' }),
      ),
    );
  }
}
