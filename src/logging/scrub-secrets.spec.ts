import { REDACTED, scrubSecrets, scrubText } from './scrub-secrets';

const token = 'wdn_' + 'A'.repeat(43);

describe('scrubText', () => {
  it.each([
    [`token ${token} leaked`, `token ${REDACTED} leaked`],
    ['Authorization: Bearer abc.def-ghi_jkl', `Authorization: ${REDACTED}`],
    ['key sk-ant-api03-abcdefghijklmnopqrstuv', `key ${REDACTED}`],
    ['/api/audit?access_token=abc&limit=2', `/api/audit?access_token=${REDACTED}&limit=2`],
    ['/x?api_key=zzz', `/x?api_key=${REDACTED}`],
    ['nothing secret here: run 42 step 3', 'nothing secret here: run 42 step 3'],
  ])('%s', (input, expected) => {
    expect(scrubText(input)).toBe(expected);
  });
});

describe('scrubSecrets', () => {
  it('walks objects, arrays and errors', () => {
    const out = scrubSecrets({
      msg: `got ${token}`,
      list: [token, 1, null],
      err: new Error(`bad token ${token}`),
    });
    expect(JSON.stringify(out)).not.toContain(token);
    expect(out).toMatchObject({
      list: [REDACTED, 1, null],
      err: { message: `bad token ${REDACTED}` },
    });
  });
});
