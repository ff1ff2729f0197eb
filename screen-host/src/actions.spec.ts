import { ACTION_LIMITS } from '@warden/protocol';
import fc from 'fast-check';
import { checkAction, plainAction } from './actions';

const screen = { width: 1280, height: 800 };

function reason(body: unknown): string {
  const result = checkAction(body, screen);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(body)}`);
  return result.reason;
}

describe('checkAction', () => {
  it.each([
    { action: 'click', x: 0, y: 0 },
    { action: 'click', x: 1279, y: 799, target: 'Save' },
    { action: 'double_click', x: 10, y: 20 },
    { action: 'type', text: 'Müller €5 ß' },
    { action: 'type', text: 'a\tb\nc' },
    { action: 'type', text: '😀'.repeat(ACTION_LIMITS.textMax) },
    { action: 'key', key: 'Ctrl+S' },
    { action: 'scroll', x: 5, y: 5, direction: 'down' },
    { action: 'scroll', x: 5, y: 5, direction: 'left', amount: 10 },
  ])('accepts %j', (body) => {
    expect(checkAction(body, screen).ok).toBe(true);
  });

  it('defaults a scroll to 3', () => {
    const result = checkAction({ action: 'scroll', x: 1, y: 2, direction: 'up' }, screen);
    expect(result.ok && result.action).toEqual({
      action: 'scroll',
      x: 1,
      y: 2,
      direction: 'up',
      amount: 3,
    });
  });

  it.each([
    [null, /JSON object/],
    [[], /JSON object/],
    ['click', /JSON object/],
    [{}, /action must be a string/],
    [{ action: 'wait', seconds: 1 }, /handled by Warden/],
    [{ action: 'done', summary: 'x' }, /handled by Warden/],
    [{ action: 'fail', reason: 'x' }, /handled by Warden/],
    [{ action: 'drag', x: 1, y: 1 }, /unknown action/],
    [{ action: 'toString' }, /unknown action/],
    [{ action: 'click', x: 1 }, /missing field "y"/],
    [{ action: 'click', x: 1, y: 1, button: 'right' }, /unknown field "button"/],
    [{ action: 'click', x: 1.5, y: 1 }, /x must be an integer/],
    [{ action: 'click', x: '1', y: 1 }, /x must be an integer/],
    [{ action: 'click', x: -1, y: 1 }, /x must be at least 0 and below 1280/],
    [{ action: 'click', x: 1280, y: 1 }, /below 1280/],
    [{ action: 'click', x: 1, y: 800 }, /below 800/],
    [{ action: 'click', x: 1, y: 1, target: 5 }, /target must be a string/],
    [{ action: 'type', text: '' }, /1 to 500 characters/],
    [{ action: 'type', text: 'x'.repeat(501) }, /1 to 500 characters/],
    [{ action: 'type', text: 5 }, /text must be a string/],
    [{ action: 'type', text: 'a\u0000b' }, /control characters/],
    [{ action: 'type', text: 'a\u001bb' }, /control characters/],
    [{ action: 'type', text: '\ud800' }, /lone surrogate/],
    [{ action: 'type', text: 'a\r\nb' }, /U\+000D CARRIAGE RETURN/],
    [{ action: 'type', text: 'Rechnung \u202e1174' }, /bidirectional controls/],
    [
      { action: 'type', text: 'Sa\u200bve' },
      /invisible characters \(it has U\+200B ZERO WIDTH SPACE\)/,
    ],
    [{ action: 'type', text: 'a', target: 'x' }, /unknown field "target"/],
    [{ action: 'key', key: 'Return' }, /unknown key/],
    [{ action: 'key', key: 'Shift+Ctrl+S' }, /order/],
    [{ action: 'key', key: ['Enter'] }, /key must be a string/],
    [{ action: 'scroll', x: 1, y: 1, direction: 'sideways' }, /direction/],
    [{ action: 'scroll', x: 1, y: 1, direction: 'up', amount: 0 }, /amount/],
    [{ action: 'scroll', x: 1, y: 1, direction: 'up', amount: 11 }, /amount/],
    [{ action: 'scroll', x: 1, y: 1, direction: 'up', amount: 2.5 }, /amount/],
  ])('refuses %j', (body, expected) => {
    expect(reason(body)).toMatch(expected);
  });

  it('counts text in code points, not UTF-16 units', () => {
    expect(checkAction({ action: 'type', text: '😀'.repeat(500) }, screen).ok).toBe(true);
    expect(checkAction({ action: 'type', text: '😀'.repeat(501) }, screen).ok).toBe(false);
  });

  it('never throws on any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        expect(typeof checkAction(body, screen).ok).toBe('boolean');
      }),
    );
  });

  it('keeps only the fields of the vocabulary (property)', () => {
    const anyAction = fc.record(
      {
        action: fc.constantFrom('click', 'double_click', 'type', 'key', 'scroll', 'wait'),
        x: fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double()),
        y: fc.integer({ min: -5, max: 900 }),
        text: fc.string({ maxLength: 20 }),
        key: fc.constantFrom('Enter', 'Ctrl+S', 'ctrl+s'),
        direction: fc.constantFrom('up', 'down', 'north'),
        amount: fc.integer({ min: -1, max: 12 }),
        target: fc.string({ maxLength: 5 }),
      },
      { requiredKeys: ['action'] },
    );
    fc.assert(
      fc.property(anyAction, (body) => {
        const result = checkAction(body, screen);
        if (!result.ok) return;
        const plain = plainAction(result.action) as Record<string, unknown>;
        for (const [name, value] of Object.entries(plain)) {
          if (name === 'amount' && !('amount' in body)) expect(value).toBe(3);
          else expect((body as Record<string, unknown>)[name]).toEqual(value);
        }
      }),
    );
  });
});
