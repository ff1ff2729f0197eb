// @ts-check
/**
 * The change list of a held commit (commit-point approval): the typing a run staged since its last
 * commit reached the screen without a person, and this commit (a Save, an Enter) stores it. The
 * approver reads it as a table, field by field, above the screenshot, and sees the changed fields
 * outlined on it. Values are shown as typed text is (dom.js typedText): in full, with every
 * character a person could not see marked.
 */
import { h, s, typedText } from './dom.js';
import { changeInWords, changesHeading } from './change-words.js';
import { marked } from './words.js';

/** @typedef {import('./api.js').Approval} Approval */
/** @typedef {import('./api.js').Change} Change */

/**
 * A value of a field: typed text in full, `(not read)` when nothing read it, `(empty)`.
 * @param {string | null} text
 */
export function fieldValue(text) {
  if (text === null) return h('span', { class: 'change-none' }, '(not read)');
  if (text === '') return h('span', { class: 'change-none' }, '(empty)');
  return typedText(text);
}

/**
 * What the commit stores in the field: the value read back from the held screen, flagged when it
 * is not what was typed (insert mode, a field that reformats) or could not be read back, in which
 * case the typed value is all there is to show.
 * @param {Change} c
 */
function afterCell(c) {
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
    if (c.read_back_check === 'differs') {
      cell.append(' ', h('span', { class: 'change-flag' }, 'typed “', fieldValue(c.after), '”'));
    }
  }
  return cell;
}

/**
 * The change list of a held commit as a table with its heading, or null for an approval without
 * one (every write held on its own, or a commit with nothing staged before it).
 * @param {Approval} approval
 * @param {{level: 'h2' | 'h3', explain: boolean}} o `explain`: the lines under the table (the
 *   approval page); the inbox shows the table alone
 */
export function changeList(approval, o) {
  const changes = approval.changes ?? [];
  if (!changes.length) return null;
  const titleId = `changes-${approval.id}`;
  const section = h(
    'section',
    { class: 'change-list', 'aria-labelledby': titleId },
    h(o.level, { id: titleId }, changesHeading(approval.action, approval.why, changes.length)),
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
    ),
  );
  if (!o.explain) return section;
  /** @param {Change[]} some */
  const names = (some) => some.map((c) => `“${marked(c.field)}”`).join(', ');
  const outlined = changes.filter(isOnScreen);
  const unread = changes.filter((c) => c.read_back_check === 'unread');
  const earlier = changes.filter((c) => c.read_back_check === 'earlier');
  const unexplained = changes.filter((c) => c.read_back_check === 'unexplained');
  section.append(
    h(
      'p',
      { class: 'help' },
      'Typed earlier in this run without a person: on the screen, not stored. Approving lets this write store it; rejecting stores nothing and stops the run. ',
      'After is the value read back from this screen',
      outlined.length ? `; outlined in green on it: ${names(outlined)}. ` : '. ',
      earlier.length
        ? `Typed on an earlier screen, which the application took: ${names(earlier)}, so After is what was typed there. `
        : '',
      unread.length
        ? `Not read back: ${names(unread)} (not on this screen, or its value could not be read), so After is what was typed. `
        : '',
      unexplained.length
        ? `The application marks ${names(unexplained)} changed, and this run typed nothing there: someone or something else changed it. Approve only if you know why.`
        : '',
    ),
  );
  return section;
}

/**
 * Whether a change's field is known to be on the held screen: its value was read back there. The
 * rect of a field not read back, or typed on an earlier screen, is where it was there, so it is not
 * drawn.
 * @param {Change} c
 */
function isOnScreen(c) {
  return c.rect !== null && ['same', 'differs', 'unexplained'].includes(c.read_back_check);
}

/**
 * The changed fields on the held screenshot: a solid green outline around each field read back on
 * it (the action keeps its red marks), named in its title.
 * @param {SVGSVGElement} overlay in the action's coordinate space
 * @param {Change[]} changes
 */
export function drawChanges(overlay, changes) {
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
