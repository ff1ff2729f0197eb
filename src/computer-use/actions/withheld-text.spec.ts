/**
 * Text meant for a password or code field is refused (docs/rules.md, "Never typed") and never stored:
 * the step and its audit event record as many dots as it had, not the text.
 */
import type { OutlineElement, ScreenContext } from './action.types';
import { checkAction } from './check-action';
import { loadRules } from './rules';

const rules = loadRules();
const field = (extra: Partial<OutlineElement>): OutlineElement => ({
  id: 'f',
  role: 'textbox',
  name: 'Current Password',
  rect: { x: 10, y: 10, width: 100, height: 20 },
  focused: true,
  ...extra,
});
const screen = (outline: OutlineElement[] | null, extra: Partial<ScreenContext> = {}) => ({
  width: 800,
  height: 600,
  outline,
  ...extra,
});

describe('text meant for a password field', () => {
  it.each([
    ['a field the outline marks as a password', screen([field({ password: true })])],
    ['a field whose outline name says PIN', screen([field({ name: 'PIN' })])],
    [
      'a field whose label OCR read says Kennwort',
      screen(null, {
        focusLabel: {
          words: [
            { text: 'Altes', confidence: 90 },
            { text: 'Kennwort', confidence: 90 },
          ],
        },
      }),
    ],
  ])('%s: refused, recorded as dots', (_, context) => {
    const verdict = checkAction({ action: 'type', text: 'geheim123' }, context, rules);
    expect(verdict.classification).toBe('invalid');
    expect(verdict.recorded).toEqual({ action: 'type', text: '•••••••••' });
  });

  it('records at most 64 dots, and other refused text as it was (card digits masked but the last four)', () => {
    const long = checkAction(
      { action: 'type', text: 'x'.repeat(300) },
      screen([field({ password: true })]),
      rules,
    );
    expect(long.recorded).toEqual({ action: 'type', text: '•'.repeat(64) });
    const card = checkAction(
      { action: 'type', text: 'card 4111 1111 1111 1111' },
      screen([field({ name: 'Notes' })]),
      rules,
    );
    expect((card.recorded as { text: string }).text).toBe('card •••• •••• •••• 1111');
  });
});
