import {
  completesCardNumber,
  containsCardNumber,
  luhn,
  maskCardNumbers,
  maskCardNumbersIn,
} from './card-number';

describe('card numbers', () => {
  it('checks Luhn', () => {
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
    expect(luhn('79927398713')).toBe(true);
  });

  it.each([
    '4111111111111111',
    '4111 1111 1111 1111',
    '4111-1111-1111-1111',
    '4111  1111  1111  1111',
    '4111 - 1111 - 1111 - 1111',
    'pay with 5500 0000 0000 0004 today',
    '378282246310005',
    '4222222222222',
    '6011000000000000001',
    '4111111111111111 123',
    'x4111111111111111y',
    '4111\u00a01111\u00a01111\u00a01111',
    '４１１１１１１１１１１１１１１１',
  ])('finds %j', (text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    '4111111111111112',
    '411111111111',
    '41111111111111111111',
    '4111.1111.1111.1111',
    'order 4711, amount 1.000,00',
    '2027-01-31',
    '',
    'no digits',
  ])('does not find one in %j', (text) => {
    expect(containsCardNumber(text)).toBe(false);
  });

  it.each([
    ['4111 1111 1111 1111', '•••• •••• •••• 1111'],
    ['Card: 3782 822463 10005, exp 12/29', 'Card: •••• •••••• •0005, exp 12/29'],
    ['４１１１１１１１１１１１１１１１', '••••••••••••１１１１'],
    ['no card 1234', 'no card 1234'],
    ['4111111111111111 and 5500-0000-0000-0004', '••••••••••••1111 and ••••-••••-••••-0004'],
  ])('masks %j as %j', (text, masked) => {
    expect(maskCardNumbers(text)).toBe(masked);
    expect(containsCardNumber(maskCardNumbers(text))).toBe(false);
  });

  it.each([
    [['4111 1111 '], '1111 1111'],
    [['4111', '1111', '1111'], '1111'],
    [['Card: 4111-1111-'], '1111-1111 exp 12/29'],
    [['41'], '11111111111111'],
    [['4111 1111 1111 1111'], 'x'], // already in the field: nothing more goes in
  ])('finds the number %j completes with %j', (before, text) => {
    expect(completesCardNumber(before, text)).toBe(true);
  });

  it.each([
    [[], '1111 1111'],
    [['4111 1111'], '.1111.1111'],
    [['4111 1111 1111 111'], '2'],
    [['order 4711 '], 'qty 10'],
    [['4111111111111111'], '1111'], // 20 digits in one run are not a card number
  ])('finds none when %j is followed by %j', (before, text) => {
    expect(completesCardNumber(before, text)).toBe(false);
  });

  it('masks every digit of a text that completes a split number', () => {
    expect(maskCardNumbers('1111 1111', ['4111 1111 '])).toBe('•••• ••••');
    expect(maskCardNumbers('1 exp 12/29', ['4111 1111 1111 111'])).toBe('• exp ••/••');
    expect(maskCardNumbers('１１', ['4111 1111 1111 11'])).toBe('••');
    expect(maskCardNumbers('1111 1111', ['order 4711 '])).toBe('1111 1111');
    expect(maskCardNumbers('4111 1111 1111 1111', [])).toBe('•••• •••• •••• 1111');
  });
});

describe('card numbers in a JSON value', () => {
  it('masks them in strings, keys and numbers, and the result is still JSON', () => {
    const value = {
      action: 'type',
      text: 'card 4111 1111 1111 1111',
      amount: 4111111111111111,
      '4111111111111111': [5500005555555559, 12, 'plain'],
      nested: { ok: true, none: null, x: 1.5 },
    };
    const masked = maskCardNumbersIn(value);
    expect(masked).toEqual({
      action: 'type',
      text: 'card •••• •••• •••• 1111',
      amount: '••••••••••••1111',
      '••••••••••••1111': ['••••••••••••5559', 12, 'plain'],
      nested: { ok: true, none: null, x: 1.5 },
    });
    expect(JSON.parse(JSON.stringify(masked))).toEqual(masked);
  });

  it('keeps a value without card numbers as it is', () => {
    const value = { action: 'click', x: 4111, y: 1111, target: 'Save' };
    expect(maskCardNumbersIn(value)).toEqual(value);
    expect(maskCardNumbersIn(null)).toBeNull();
    expect(maskCardNumbersIn(1234.5)).toBe(1234.5);
    // A number of 20 digits or more holds no card number, as text of 20 digits does not.
    expect(maskCardNumbersIn(1e21)).toBe(1e21);
  });
});
