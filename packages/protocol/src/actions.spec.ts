import {
  ACTION_FIELDS,
  ACTION_LIMITS,
  ACTION_NAMES,
  HOST_ACTION_NAMES,
  isActionName,
  isHostActionName,
  isScrollAmount,
  isScrollDirection,
} from './actions';

describe('the action vocabulary (docs/rules.md)', () => {
  it('names eight actions, of which the screen host performs five', () => {
    expect(ACTION_NAMES.join(' ')).toBe('click double_click type key scroll wait done fail');
    expect(HOST_ACTION_NAMES.join(' ')).toBe('click double_click type key scroll');
    expect(ACTION_NAMES.filter((n) => !isHostActionName(n))).toEqual(['wait', 'done', 'fail']);
  });

  it('lists the fields of every action, and of no other', () => {
    expect(Object.keys(ACTION_FIELDS).sort()).toEqual([...ACTION_NAMES].sort());
    expect(ACTION_FIELDS.click).toEqual({ required: ['x', 'y'], optional: ['target'] });
    expect(ACTION_FIELDS.scroll).toEqual({
      required: ['x', 'y', 'direction'],
      optional: ['amount'],
    });
    expect(Object.isFrozen(ACTION_FIELDS)).toBe(true);
  });

  it.each(['toString', 'constructor', '__proto__', 'Click', 'drag', '', null, 1])(
    'knows no action %p',
    (name) => {
      expect(isActionName(name)).toBe(false);
      expect(isHostActionName(name)).toBe(false);
    },
  );

  it('has the limits of the table', () => {
    expect(ACTION_LIMITS).toMatchObject({
      textMax: 500,
      amountMin: 1,
      amountMax: 10,
      amountDefault: 3,
      secondsMin: 0.1,
      secondsMax: 10,
    });
  });

  it.each([
    [1, true],
    [10, true],
    [3, true],
    [0, false],
    [11, false],
    [2.5, false],
    ['3', false],
    [NaN, false],
  ])('scroll amount %p: %p', (amount, ok) => {
    expect(isScrollAmount(amount)).toBe(ok);
  });

  it.each([
    ['up', true],
    ['left', true],
    ['Up', false],
    ['north', false],
    [null, false],
  ])('scroll direction %p: %p', (direction, ok) => {
    expect(isScrollDirection(direction)).toBe(ok);
  });
});
