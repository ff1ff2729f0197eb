// @ts-check
/**
 * How the console says things: actions, outcomes, statuses and times in words an approver reads
 * without knowing the API. Pure functions of their inputs.
 */

/** @typedef {import('./api.js').Action} Action */
/** @typedef {import('./api.js').Change} Change */
/** @typedef {import('./api.js').Step} Step */

/** @param {unknown} value */
const str = (value) => (typeof value === 'string' ? value : '');
/** @param {unknown} value */
const num = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The characters a person could not see, or could not tell from others, in text that is typed:
 * controls (tab, newline and carriage return among them), format characters (bidirectional
 * controls, zero-width characters, tag characters), line and paragraph separators, characters
 * that are ignored when shown (variation selectors, Hangul fillers), surrogates, private-use and
 * unassigned code points, and every space but the plain one.
 */
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]|[^\P{Zs} ]/gu;

/** Three marks a reader knows from keyboards and editors; every other character is named. */
const SHORT_MARKS = /** @type {Record<string, [string, string]>} */ ({
  '\t': ['⇥', 'tab'],
  '\n': ['↵', 'newline'],
  '\r': ['␍', 'carriage return'],
});

const C0 = [
  'NULL',
  'START OF HEADING',
  'START OF TEXT',
  'END OF TEXT',
  'END OF TRANSMISSION',
  'ENQUIRY',
  'ACKNOWLEDGE',
  'BELL',
  'BACKSPACE',
  'CHARACTER TABULATION',
  'LINE FEED',
  'LINE TABULATION',
  'FORM FEED',
  'CARRIAGE RETURN',
  'SHIFT OUT',
  'SHIFT IN',
  'DATA LINK ESCAPE',
  'DEVICE CONTROL ONE',
  'DEVICE CONTROL TWO',
  'DEVICE CONTROL THREE',
  'DEVICE CONTROL FOUR',
  'NEGATIVE ACKNOWLEDGE',
  'SYNCHRONOUS IDLE',
  'END OF TRANSMISSION BLOCK',
  'CANCEL',
  'END OF MEDIUM',
  'SUBSTITUTE',
  'ESCAPE',
  'INFORMATION SEPARATOR FOUR',
  'INFORMATION SEPARATOR THREE',
  'INFORMATION SEPARATOR TWO',
  'INFORMATION SEPARATOR ONE',
];

/** @type {Record<number, string>} */
const NAMES = {
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0xa0: 'NO-BREAK SPACE',
  0xad: 'SOFT HYPHEN',
  0x34f: 'COMBINING GRAPHEME JOINER',
  0x61c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x1680: 'OGHAM SPACE MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x2000: 'EN QUAD',
  0x2001: 'EM QUAD',
  0x2002: 'EN SPACE',
  0x2003: 'EM SPACE',
  0x2004: 'THREE-PER-EM SPACE',
  0x2005: 'FOUR-PER-EM SPACE',
  0x2006: 'SIX-PER-EM SPACE',
  0x2007: 'FIGURE SPACE',
  0x2008: 'PUNCTUATION SPACE',
  0x2009: 'THIN SPACE',
  0x200a: 'HAIR SPACE',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x202f: 'NARROW NO-BREAK SPACE',
  0x205f: 'MEDIUM MATHEMATICAL SPACE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x2800: 'BRAILLE PATTERN BLANK',
  0x3000: 'IDEOGRAPHIC SPACE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0xe0001: 'LANGUAGE TAG',
  0xe007f: 'CANCEL TAG',
};

/**
 * A character's code point and, where known, its Unicode name: `U+200B ZERO WIDTH SPACE`. A tag
 * character says which ASCII character it copies, so a hidden message can be read.
 * @param {string} char
 */
export function charName(char) {
  const cp = char.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  let name = cp < 0x20 ? C0[cp] : NAMES[cp];
  if (!name && cp >= 0x80 && cp < 0xa0) name = 'CONTROL';
  if (!name && cp >= 0xfe00 && cp <= 0xfe0f) name = `VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  if (!name && cp === 0xe0020) name = 'TAG SPACE';
  if (!name && cp > 0xe0020 && cp <= 0xe007e) name = `TAG ${String.fromCodePoint(cp - 0xe0000)}`;
  return name ? `${hex} ${name}` : hex;
}

/**
 * @typedef {{ mark: string, name: string, char: string, newline: boolean }} Mark
 * A visible mark for a character a person could not see: what is shown, its name, the character
 * it stands for, and whether the text goes on on a new line after it (a newline).
 */

/**
 * Typed text cut into what is shown as it is and the marks for what is not, in order: nothing is
 * left out and nothing is shortened. Tab is `⇥`, newline `↵` (and the text goes on on the next
 * line), carriage return `␍`; every other such character is named, `⟨U+200B ZERO WIDTH SPACE⟩`.
 * @param {string} text
 * @returns {Array<string | Mark>}
 */
export function typedPieces(text) {
  /** @type {Array<string | Mark>} */
  const pieces = [];
  let last = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    const char = match[0];
    const index = match.index ?? 0;
    if (index > last) pieces.push(text.slice(last, index));
    const short = SHORT_MARKS[char];
    const name = charName(char);
    pieces.push(
      short
        ? { mark: short[0], name: short[1], char, newline: char === '\n' }
        : { mark: `⟨${name}⟩`, name, char, newline: false },
    );
    last = index + char.length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

/**
 * Typed text in full on one line, its marks in place: for page titles and announcements. Where
 * the marks can be told from typed characters (a page), `typedText` in dom.js builds them.
 * @param {string} text
 */
export function marked(text) {
  return typedPieces(text)
    .map((p) => (typeof p === 'string' ? p : p.mark))
    .join('');
}

/**
 * Text for people that is not typed (a label, a summary): marked as typed text is, long text
 * shortened.
 * @param {string} text
 * @param {number} [max]
 */
export function shown(text, max = 80) {
  const chars = [...marked(text)];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/**
 * The characters of a text, counted as the screen host counts them (code points).
 * @param {string} text
 */
export function characters(text) {
  return [...text].length;
}

/**
 * An action as JSON, exactly, with every character `typedPieces` marks written as a `\\u` escape:
 * the same JSON, but nothing in it is invisible or turns the line around.
 * @param {unknown} value
 */
export function exactJson(value) {
  return (JSON.stringify(value) ?? 'null').replace(INVISIBLE, (char) =>
    [...Array(char.length).keys()]
      .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}

/** @param {string} text */
const quoted = (text) => `“${shown(text, 60)}”`;

/**
 * The label a click is about: the planner's target, or the label Warden itself read (the
 * classification's why quotes it: `click on “Save” (from the screen outline)`).
 * @param {Action} action
 * @param {string | null} [why]
 */
export function clickLabel(action, why) {
  const target = str(action.target).trim();
  if (target) return target;
  const match = /\bon “([^”]+)”/.exec(why ?? '');
  return match ? match[1] : '';
}

/**
 * One action in words: `Click “Save” at 812, 96`, `Type “15.12.2026”`, `Key Ctrl+S`.
 * @param {Action | null | undefined} action
 * @param {string | null} [why] the classification's why, for the label of a click
 */
export function actionInWords(action, why) {
  if (!action || typeof action !== 'object') return 'No action';
  const x = num(action.x);
  const y = num(action.y);
  const at = x !== null && y !== null ? ` at ${x}, ${y}` : '';
  switch (action.action) {
    case 'click':
    case 'double_click': {
      const verb = action.action === 'click' ? 'Click' : 'Double-click';
      const label = clickLabel(action, why);
      return `${verb}${label ? ` ${quoted(label)}` : ''}${at}`;
    }
    case 'type':
      // Never shortened: what is typed is what a person approves (DESIGN §6).
      return `Type “${marked(str(action.text))}”`;
    case 'key':
      return `Key ${str(action.key)}`;
    case 'scroll':
      return `Scroll ${str(action.direction) || 'down'} ${num(action.amount) ?? 3}${at}`;
    case 'wait':
      return `Wait ${num(action.seconds) ?? '?'} s`;
    case 'done':
      return `Done: ${shown(str(action.summary), 120)}`;
    case 'fail':
      return `Give up: ${shown(str(action.reason), 120)}`;
    default:
      return `Not an action Warden knows (${shown(JSON.stringify(action), 60)})`;
  }
}

/** @type {Record<string, string>} */
const OUTCOMES = {
  sent: 'sent',
  held: 'held for approval',
  sent_after_approval: 'sent after approval',
  staged: 'staged until the commit',
  stale: 'not sent: the screen had changed',
  rejected: 'rejected: not sent',
  refused: 'refused as invalid: not sent',
  ended: 'ended with the run',
  screen_changed: 'not sent: the screen changed before it could act; planned again',
  refused_by_application: 'sent; the application refused it',
};

/**
 * Who decided a held write, when, with which comment, and who resumed it: `approved by bob at
 * 10:02 (“checked the screen”); resumed by olga at 10:03`.
 * @param {import('./api.js').StepApproval | undefined | null} a
 * @returns {string | null}
 */
export function approvalInWords(a) {
  if (!a) return null;
  if (a.status === 'pending') return 'waiting for a decision';
  if (a.status === 'expired' && !a.decided_by) return 'expired: nobody decided in time';
  const verb = a.status === 'rejected' ? 'rejected' : 'approved';
  const when = a.decided_at ? ` at ${clock(a.decided_at)}` : '';
  const comment = a.comment ? ` (“${shown(a.comment, 120)}”)` : '';
  const decided = `${verb} by ${a.decided_by ?? '?'}${when}${comment}`;
  if (a.resumed_by) {
    const at = a.resumed_at ? ` at ${clock(a.resumed_at)}` : '';
    return `${decided}; resumed by ${a.resumed_by}${at}`;
  }
  return a.status === 'approved' ? `${decided}; not resumed yet` : decided;
}

/** @type {Record<string, string>} */
const MESSAGE_TYPES = { S: 'success', I: 'information', W: 'warning', E: 'error', A: 'abort' };

/**
 * A write's receipt in words: `saved: Standard Order 4711 has been saved` as the application put
 * it, with its message type; a message left from before the write says so; no receipt says why.
 * @param {import('./api.js').Receipt | undefined | null} receipt
 * @returns {string | null}
 */
export function receiptInWords(receipt) {
  if (!receipt) return null;
  if (!receipt.message) return `none: ${receipt.none ?? 'not read'}`;
  const { type, text, source } = receipt.message;
  const kind = type ? `${MESSAGE_TYPES[type] ?? type} (${type}) ` : '';
  const where = source === 'dialog' ? 'a dialog' : 'the status bar';
  const said = `“${shown(text, 200)}”`;
  if (!receipt.fresh) return `${where} still showed ${kind}${said} from before`;
  return `${kind}${said} in ${where}`;
}

/** @param {string | null} outcome */
export function outcomeInWords(outcome) {
  if (!outcome) return 'in progress';
  return OUTCOMES[outcome] ?? outcome;
}

/**
 * A step's outcome in words; a staged edit names its field: `staged into “Order” until the commit`.
 * A step that ended with no outcome (a screen host or model error, or an action whose outcome
 * nobody can tell) is not in progress: its error says why.
 * @param {Pick<Step, 'outcome' | 'staged'> & {ended_at?: string | null}} step
 */
export function stepOutcomeInWords(step) {
  if (step.outcome === 'staged' && step.staged) {
    return `staged into ${quoted(step.staged.field.label)} until the commit`;
  }
  if (!step.outcome && step.ended_at) return 'ended with no outcome: see its error';
  return outcomeInWords(step.outcome);
}

/**
 * The heading of a held commit's change list (commit-point approval): `This Save stores 2
 * changes`, `This Enter stores 1 change`; a held typing that commits staged changes says so.
 * @param {Action} action
 * @param {string | null} why
 * @param {number} n
 */
export function changesHeading(action, why, n) {
  const changes = `${n} ${n === 1 ? 'change' : 'changes'}`;
  const label =
    action.action === 'click' || action.action === 'double_click' ? clickLabel(action, why) : '';
  if (label) return `This ${shown(label, 40)} stores ${changes}`;
  if (action.action === 'key') return `This ${str(action.key)} stores ${changes}`;
  return `This write commits ${n} staged ${n === 1 ? 'change' : 'changes'}`;
}

/**
 * The decision in one sentence, in the system's words: `SAP GUI (sim) · Click “Save” stores Req.
 * Deliv. Date “15.03.2026” → “30.04.2026”`. The point on the screen is left to the page's details;
 * a field typed on an earlier screen (an order number that opened the order) is not a stored
 * change: it is said as what it opened with.
 * @param {{system: string | null | undefined, action: Action, why: string | null,
 *   changes?: Change[] | null}} o
 * @returns {string}
 */
export function decisionSentence(o) {
  const what = actionInWords(o.action, o.why).replace(/ at -?\d+, -?\d+$/, '');
  const system = o.system ? `${o.system} · ` : '';
  const changes = o.changes ?? [];
  const value = (/** @type {string | null} */ v) =>
    v === null ? '(not read)' : `“${shown(v, 40)}”`;
  const stored = changes
    .filter((c) => c.read_back_check !== 'earlier')
    .map((c) => `${c.field} ${value(c.before)} → ${value(c.read_back ?? c.after)}`);
  const opened = changes
    .filter((c) => c.read_back_check === 'earlier')
    .map((c) => `${c.field} ${value(c.after)}`);
  const stores = stored.length > 0 ? ` stores ${stored.join('; ')}` : '';
  const within = opened.length > 0 ? ` (opened with ${opened.join(', ')})` : '';
  return `${system}${what}${stores}${within}`;
}

/**
 * A line of a change list in words, as the API's audit and protocol say it
 * (`Req. Deliv. Date: “15.03.2026” → “30.04.2026”`, ` (typed “300426”)` when the field reads back
 * otherwise, ` (not read back)`), but with every value in full and its invisible characters marked.
 * @param {Change} change
 */
export function changeInWords(change) {
  /** @param {string | null} v */
  const value = (v) => (v === null ? '(not read)' : `“${marked(v)}”`);
  /** @type {Record<string, string>} */
  const flags = {
    differs: ` (typed ${value(change.after)})`,
    unread: ' (not read back)',
    earlier: ' (typed on an earlier screen)',
    unexplained: ' (changed without a typed edit)',
  };
  const after =
    change.read_back_check === 'earlier' ? change.after : (change.read_back ?? change.after);
  return `${change.field}: ${value(change.before)} → ${value(after)}${flags[change.read_back_check] ?? ''}`;
}

/** @type {Record<string, string>} */
const STATUSES = {
  queued: 'queued: waiting for its screen host',
  running: 'running',
  awaiting_approval: 'waiting for approval',
  completed: 'completed',
  failed: 'failed',
  stopped: 'stopped',
};

/** @type {Record<string, string>} */
const END_REASONS = {
  done: 'the planner finished the goal',
  fail: 'the planner gave up',
  model_error: 'the model call failed',
  screen_host_error: 'the screen host did not answer properly',
  outcome_unknown:
    'it is unknown whether its last action was carried out: a person must check the screen',
  step_cap: 'it reached its step limit',
  time_cap: 'it reached its time limit',
  invalid_actions: 'the planner proposed three invalid actions',
  killed: "the agent's kill switch was engaged",
  cancelled: 'an operator cancelled it',
  stale_screen: 'the screen changed after approval, so the write was not sent',
  rejected: 'an approver rejected a write',
  approval_expired: 'nobody decided on a write in time',
  budget_exhausted: 'its model budget ran out',
  stalled: 'the screen stopped changing',
  not_granted: 'its screen host token or model key is no longer granted for where it goes',
  injection: 'the screen held instructions to the model, and the agent stops on those',
};

/** @param {{status: string, end_reason: string | null}} run */
export function statusInWords(run) {
  const status = STATUSES[run.status] ?? run.status;
  if (!run.end_reason) return status;
  return `${status}: ${END_REASONS[run.end_reason] ?? run.end_reason}`;
}

/** @param {string} status */
export function isEnded(status) {
  return status === 'completed' || status === 'failed' || status === 'stopped';
}

/** @type {Record<string, string>} */
const PERMISSIONS = {
  'agents.approve': 'approve held writes',
  'agents.operate': 'start, resume and cancel runs',
  'audit.read': 'read the audit log',
  'computer_use.admin': 'administer computer use',
  'governance.weaken': 'loosen controls',
};

/** @param {string} permission */
export function permissionInWords(permission) {
  return PERMISSIONS[permission] ?? permission;
}

/**
 * A duration in the largest sensible unit: `45 s`, `3 min`, `2 h 5 min`, `3 days`.
 * @param {number} ms
 */
export function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const hours = Math.floor(min / 60);
  if (hours < 48) return min % 60 ? `${hours} h ${min % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/**
 * How long ago: `12 s ago`.
 * @param {string} iso
 * @param {number} now
 */
export function ago(iso, now) {
  return `${duration(now - Date.parse(iso))} ago`;
}

/**
 * When an approval runs out: `in 59 min`, or `expired 2 min ago`.
 * @param {string} iso
 * @param {number} now
 */
export function expiry(iso, now) {
  const left = Date.parse(iso) - now;
  return left > 0 ? `in ${duration(left)}` : `expired ${duration(-left)} ago`;
}

/**
 * A local date and time without the browser's locale guessing: `2026-05-01 14:03:22`.
 * @param {string | null} iso
 */
export function clock(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  /** @param {number} n */
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * A model call's usage: `anthropic claude-x · 1200 in / 80 out tokens · 1.4 s`; for a planner
 * that asks no model, its id, its time in ms and its notes.
 * @param {import('./api.js').ModelUsage | undefined} model
 */
export function modelInWords(model) {
  if (!model) return 'no model call (scripted planner)';
  // A planner that asks no model (the navigator): its name, its time and what it thought.
  if (model.calls === 0) {
    const said = [`${model.model ?? model.provider ?? '?'}, no model call`];
    if (typeof model.latency_ms === 'number') said.push(`${model.latency_ms} ms`);
    if (model.notes) said.push(model.notes);
    return said.join(' · ');
  }
  /** @param {number | null | undefined} n */
  const tokens = (n) => (typeof n === 'number' ? String(n) : 'unknown');
  const parts = [`${model.provider ?? '?'} ${model.model ?? ''}`.trim()];
  parts.push(`${tokens(model.input_tokens)} in / ${tokens(model.output_tokens)} out tokens`);
  if (typeof model.latency_ms === 'number') parts.push(`${(model.latency_ms / 1000).toFixed(1)} s`);
  return parts.join(' · ');
}

/**
 * A config value in an audit event, short: `"commit"`, `true`, `[2 rules]`, `null`.
 * @param {unknown} v
 */
function valueInWords(v) {
  if (Array.isArray(v)) return `[${v.length} ${v.length === 1 ? 'entry' : 'entries'}]`;
  const text = JSON.stringify(v) ?? 'unset';
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * An audit event's gist in one line, from the details Warden records.
 * @param {import('./api.js').AuditEvent} event
 */
export function eventInWords(event) {
  const d = event.details;
  const parts = [];
  if (event.type === 'computer_use.write' || event.type === 'computer_use.write.unknown') {
    // Whose authority the write went on: a person's approval, or why none was needed.
    if (typeof d.approved_by === 'string') {
      parts.push(
        `approved by ${d.approved_by}${typeof d.resumed_by === 'string' ? `, resumed by ${d.resumed_by}` : ''}`,
      );
    } else if (d.staged === true) parts.push('staged, no approval (commit-point approval)');
    else if (typeof d.without_approval === 'string')
      parts.push(`no approval: ${d.without_approval}`);
  }
  if (event.type === 'governance.weaken' && typeof d.control === 'string') {
    // What was loosened, not only why: the control, from → to, and for screen rules each entry.
    const agent = typeof d.agent === 'string' ? `agent ${quoted(d.agent)}: ` : '';
    parts.push(`${agent}${d.control} ${valueInWords(d.from)} → ${valueInWords(d.to)}`);
    if (Array.isArray(d.entries)) parts.push(...d.entries.filter((e) => typeof e === 'string'));
  }
  if (event.type === 'token.created' && typeof d.subject === 'string') {
    const may = Array.isArray(d.permissions)
      ? d.permissions.map((p) => permissionInWords(String(p))).join(', ')
      : '';
    parts.push(`a token for ${quoted(d.subject)}${may ? `, who may ${may}` : ''}`);
  }
  if (d.action && typeof d.action === 'object')
    parts.push(actionInWords(/** @type {Action} */ (d.action), str(d.why)));
  if (typeof d.decision === 'string') {
    const screen = typeof d.screen_sha256 === 'string' ? d.screen_sha256.slice(0, 12) : null;
    parts.push(screen ? `${d.decision} on screen ${screen}…` : d.decision);
  }
  if (typeof d.goal === 'string') parts.push(`goal ${quoted(d.goal)}`);
  if (typeof d.end_reason === 'string') parts.push(`${str(d.status)} (${d.end_reason})`);
  if (typeof d.why === 'string' && !d.action) parts.push(d.why);
  if (typeof d.comment === 'string' && d.comment) parts.push(`comment ${quoted(d.comment)}`);
  if (typeof d.reason === 'string' && d.reason) parts.push(d.reason);
  if (d.receipt && typeof d.receipt === 'object') {
    const words = receiptInWords(/** @type {import('./api.js').Receipt} */ (d.receipt));
    if (words) parts.push(`the application said: ${words}`);
  }
  return parts.join(' · ');
}
