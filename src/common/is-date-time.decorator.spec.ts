import { validateSync } from 'class-validator';
import { IsDateTime } from './is-date-time.decorator';

class Query {
  @IsDateTime()
  since: unknown;
}

const problems = (since: unknown) =>
  validateSync(Object.assign(new Query(), { since })).flatMap((e) =>
    Object.values(e.constraints ?? {}),
  );

describe('IsDateTime', () => {
  it.each(['2026-11-01T00:00:00Z', '2026-11-01', '2026-11-01T08:30:00.123+01:00', '2026-001'])(
    'takes %s',
    (since) => {
      expect(problems(since)).toEqual([]);
    },
  );

  it.each([
    '2026-W01',
    '2026-01-01T10',
    '20260101T000000Z',
    '2026-02-30T00:00:00Z',
    'now',
    20260101,
  ])('refuses %j, naming the field', (since) => {
    expect(problems(since)).toEqual([
      'since must be an ISO 8601 date and time such as 2026-11-01T00:00:00Z',
    ]);
  });
});
