import { randomBytes } from 'node:crypto';
import { inlineParams } from '../../src/sql/sql';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * The send gate goes to PostgreSQL in one round trip, its parameters written into the statement as
 * literals. Against the real server: every value reads back exactly as the same value sent as a
 * parameter, whatever quotes, backslashes or `$k` it holds, and the same types are inferred.
 */
describe('parameters written as literals (inlineParams)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.drop();
  });

  const STATEMENT = `SELECT $1::text AS t, $2::jsonb AS j, $3::int AS n, $4::boolean AS b,
                            $5::timestamptz AS d, $6::text AS nothing, $1 = $7 AS same,
                            $8 = $1::text AS inferred, $9::text AS ninth, $10::text AS tenth`;

  function randomText(): string {
    const parts = [`'`, `''`, `\\`, `\\'`, `$1`, `$$`, `E'`, '"', ';', '--', '/*', 'é', '😀', ' '];
    let text = '';
    for (let i = 0; i < 12; i++) {
      text +=
        Math.random() < 0.5
          ? parts[Math.floor(Math.random() * parts.length)]
          : randomBytes(3).toString('base64');
    }
    return text;
  }

  it('reads back what the same values read as parameters, for 200 random texts', async () => {
    for (let i = 0; i < 200; i++) {
      const text = randomText();
      const params = [
        text,
        JSON.stringify({ text, n: i }),
        i,
        i % 2 === 0,
        new Date(Date.UTC(2026, 11, 7, 10, 0, i % 60, i)),
        null,
        text,
        text,
        'nine',
        `tenth ${text}`,
      ];
      const [asParams] = await db.sql(STATEMENT, params);
      const [asLiterals] = await db.sql(inlineParams(STATEMENT, params));
      expect(asLiterals).toEqual(asParams);
      expect(asLiterals.t).toBe(text);
      expect(asLiterals.same).toBe(true);
      expect(asLiterals.tenth).toBe(`tenth ${text}`);
    }
  });

  it('refuses a text holding NUL, as PostgreSQL refuses it as a parameter', async () => {
    await expect(db.sql('SELECT $1::text AS t', ['a\u0000b'])).rejects.toThrow(/0x00/);
    expect(() => inlineParams('SELECT $1::text AS t', ['a\u0000b'])).toThrow(/NUL/);
  });

  it('refuses a value it cannot write as node-postgres would send it, and a $k with no value', () => {
    expect(() => inlineParams('SELECT $1', [Buffer.from('x')])).toThrow(/cannot be written/);
    expect(() => inlineParams('SELECT $1', [['a']])).toThrow(/cannot be written/);
    expect(() => inlineParams('SELECT $1', [{ a: 1 }])).toThrow(/cannot be written/);
    expect(() => inlineParams('SELECT $1', [Number.NaN])).toThrow(/cannot be written/);
    expect(() => inlineParams('SELECT $2', ['a'])).toThrow(/no value for \$2/);
    expect(() => inlineParams('SELECT $0', ['a'])).toThrow(/no value for \$0/);
  });
});
