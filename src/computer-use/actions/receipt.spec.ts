import type { OutlineElement } from './action.types';
import {
  messageOf,
  processesScreen,
  REDACTED_MESSAGE,
  receiptLine,
  receiptOf,
  refusalOf,
  type AppMessage,
} from './receipt';

const rect = (x: number, y: number, width = 100, height = 20) => ({ x, y, width, height });
const statusBar = (name: string, type?: 'S' | 'E' | 'W' | 'I' | 'A'): OutlineElement => ({
  id: 'wnd[0]/sbar',
  role: 'status',
  name,
  rect: rect(0, 760, 1280, 24),
  ...(type ? { message_type: type } : {}),
});
const saved = statusBar('Standard Order 4711 has been saved', 'S');
const badDate = statusBar('Enter a valid date (DD.MM.YYYY)', 'E');
const button: OutlineElement = { id: 'save', role: 'button', name: 'Save', rect: rect(250, 60) };
const dialog: OutlineElement[] = [
  {
    id: 'popup',
    role: 'dialog',
    name: 'Save changes',
    rect: rect(400, 300, 400, 200),
    states: ['modal'],
    area: 'dialog',
  },
  {
    id: 'popup-message',
    role: 'label',
    name: 'Data was changed. Save?',
    rect: rect(420, 340, 300),
  },
  { id: 'yes', role: 'button', name: 'Yes', rect: rect(420, 450, 80) },
  { id: 'behind', role: 'label', name: 'Sold-to party', rect: rect(10, 100) },
];
const msg = (source: 'status' | 'dialog', type: AppMessage['type'], text: string) => ({
  source,
  type,
  text,
});

describe('messageOf', () => {
  it.each<[string, OutlineElement[], AppMessage | null]>([
    ['the status bar with its type', [button, saved], msg('status', 'S', saved.name)],
    ['an empty status bar is no message', [button, statusBar('  ')], null],
    ['no status bar, no dialog', [button], null],
    [
      'a status bar without a type (an accessibility status bar)',
      [statusBar('Book saved')],
      msg('status', null, 'Book saved'),
    ],
    [
      'an element the host places in the status area',
      [{ id: 's', role: 'label', name: 'Saved', rect: rect(0, 0), area: 'status' }],
      msg('status', null, 'Saved'),
    ],
    [
      'a modal dialog comes first, with its text inside it, not what is behind it',
      [saved, ...dialog],
      msg('dialog', null, 'Save changes: Data was changed. Save?'),
    ],
    [
      'a dialog that is not modal nor placed as one is not a message',
      [{ ...dialog[0], states: [], area: undefined }, saved],
      msg('status', 'S', saved.name),
    ],
    [
      'control and format characters go (a bidi override, a newline)',
      [statusBar('Order\u202e 4711\nsaved', 'S')],
      msg('status', 'S', 'Order 4711 saved'),
    ],
  ])('%s', (_, outline, expected) => {
    expect(messageOf(outline)).toEqual(expected);
  });

  it('keeps at most 500 characters', () => {
    expect(messageOf([statusBar('x'.repeat(900), 'S')])?.text).toHaveLength(500);
  });
});

describe('receiptOf and refusalOf', () => {
  const before = messageOf([badDate]);

  it('a new S message is a fresh receipt and no refusal', () => {
    const receipt = receiptOf({ before: null }, [button, saved]);
    expect(receipt).toEqual({ before: null, message: msg('status', 'S', saved.name), fresh: true });
    expect(refusalOf(receipt)).toBeNull();
    expect(receiptLine(receipt)).toBe('the status bar says S: Standard Order 4711 has been saved');
  });

  it('a new E message refuses the write in the application’s words', () => {
    const receipt = receiptOf({ before: messageOf([saved]) }, [badDate]);
    expect(refusalOf(receipt)).toBe(
      'the application answered with an error message: Enter a valid date (DD.MM.YYYY)',
    );
  });

  it('an A message refuses it too; W and I do not', () => {
    expect(refusalOf(receiptOf({ before: null }, [statusBar('Session ended', 'A')]))).toMatch(
      /an abort message: Session ended$/,
    );
    expect(refusalOf(receiptOf({ before: null }, [statusBar('Check the date', 'W')]))).toBeNull();
    expect(refusalOf(receiptOf({ before: null }, [statusBar('Note', 'I')]))).toBeNull();
  });

  it('an E message left from before the write is not its answer', () => {
    const receipt = receiptOf({ before }, [badDate]);
    expect(receipt).toMatchObject({ fresh: false });
    expect(refusalOf(receipt)).toBeNull();
    expect(receiptLine(receipt)).toBe(
      'the status bar still shows E: Enter a valid date (DD.MM.YYYY) (from before)',
    );
  });

  it('after a write the application processed, the same E or A text is its answer: refused', () => {
    // A Save refused, approved and sent again, refused again in the same words.
    for (const bar of [badDate, statusBar('Session ended', 'A')]) {
      const again = receiptOf({ before: messageOf([bar]) }, [bar], true);
      expect(again).toMatchObject({ fresh: true });
      expect(refusalOf(again)).toMatch(/^the application answered with an (error|abort) message/);
    }
    // An S, I or W message the same as before is still not taken for the answer.
    const same = receiptOf({ before: messageOf([saved]) }, [saved], true);
    expect(same).toMatchObject({ fresh: false });
  });

  it('processing is a commit key, a click that is no value edit, or a newline typed', () => {
    const processed: Array<[unknown, boolean, boolean]> = [
      [{ action: 'key', key: 'Enter' }, false, true],
      [{ action: 'key', key: 'Ctrl+S' }, false, true],
      [{ action: 'key', key: 'Delete' }, false, true],
      [{ action: 'key', key: 'Backspace' }, false, false],
      [{ action: 'click', x: 1, y: 1 }, false, true],
      [{ action: 'double_click', x: 1, y: 1 }, false, true],
      [{ action: 'click', x: 1, y: 1 }, true, false],
      [{ action: 'type', text: '30.04.2026' }, false, false],
      [{ action: 'type', text: '30.04.2026\n' }, false, true],
      [{ action: 'type', text: 'a\tb' }, false, false],
      [null, false, true],
      [{ action: 'type' }, false, true],
    ];
    for (const [action, edit, expected] of processed) {
      expect([action, edit, processesScreen(action, edit)]).toEqual([action, edit, expected]);
    }
  });

  it('the same text with another type is a new message', () => {
    const receipt = receiptOf({ before: msg('status', 'S', badDate.name) }, [badDate]);
    expect(receipt).toMatchObject({ fresh: true });
    expect(refusalOf(receipt)).not.toBeNull();
  });

  it('without what the screen showed before, a message cannot be told fresh: no refusal', () => {
    const receipt = receiptOf(null, [badDate]);
    expect(receipt).toMatchObject({ before: null, fresh: false });
    expect(refusalOf(receipt)).toBeNull();
  });

  it('says why there is no receipt', () => {
    const none = receiptOf({ before }, null);
    expect(none).toEqual({
      before,
      none: "the screen host serves no outline: the application's message was not read",
    });
    expect(refusalOf(none)).toBeNull();
    expect(receiptLine(receiptOf({ before }, [button]))).toBe(
      'no receipt: the application showed no message',
    );
  });

  it('a message under a redaction is read without its text, and an E there still refuses', () => {
    const hidden = (e: OutlineElement): OutlineElement => ({ ...e, name: '', redacted: true });
    const first = messageOf([hidden(badDate)]);
    expect(first).toEqual({
      source: 'status',
      type: 'E',
      text: REDACTED_MESSAGE,
      redacted: true,
    });
    // Two hidden texts cannot be told apart: it is never the message before.
    const receipt = receiptOf({ before: first }, [hidden(badDate)]);
    expect(receipt).toMatchObject({ fresh: true });
    expect(refusalOf(receipt)).toBe(
      `the application answered with an error message: ${REDACTED_MESSAGE}`,
    );
    expect(refusalOf(receiptOf({ before: first }, [hidden(saved)]))).toBeNull();
    const popup = dialog.map((e) => (e.id === 'popup-message' ? hidden(e) : e));
    expect(messageOf(popup)).toMatchObject({ source: 'dialog', text: REDACTED_MESSAGE });
    expect(JSON.stringify(messageOf(popup))).not.toContain('Data was changed');
  });

  it('a message dialog that opened is the receipt', () => {
    const receipt = receiptOf({ before: messageOf([saved]) }, dialog);
    expect(receipt).toMatchObject({ fresh: true, message: { source: 'dialog' } });
    expect(receiptLine(receipt)).toBe('a dialog says Save changes: Data was changed. Save?');
  });
});
