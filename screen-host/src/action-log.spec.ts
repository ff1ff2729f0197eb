import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActionLog, loggableAction } from './action-log';

function logFile(lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'action-log-')), 'actions.log');
  writeFileSync(path, lines.map((l) => `${l}\n`).join(''));
  return path;
}

const line = (key: string | null, outcome: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    time: 't',
    backend: 'sim',
    idempotency_key: key,
    action: {},
    outcome,
    ...extra,
  });

describe('ActionLog.recordedKeys', () => {
  it('says what became of each key by its last line, newest last', () => {
    const path = logFile([
      '{"torn": tr', // the tail of a bigger file can start mid-line
      line('a', 'started'),
      line('a', 'performed', { ms: 3.5 }),
      line(null, 'performed', { ms: 1 }),
      line('b', 'started'),
      line('b', 'failed', { ms: 2, error: 'xdotool exited with 1' }),
      line('c', 'started'),
      line('d', 'performed', { ms: 7 }), // a log of the first version: no started line
    ]);
    expect(ActionLog.recordedKeys(path)).toEqual([
      { key: 'a', outcome: 'performed', ms: 3.5 },
      { key: 'b', outcome: 'failed', error: 'xdotool exited with 1' },
      { key: 'c', outcome: 'unknown' },
      { key: 'd', outcome: 'performed', ms: 7 },
    ]);
    expect(ActionLog.performedKeys(path)).toEqual([
      { key: 'a', ms: 3.5 },
      { key: 'd', ms: 7 },
    ]);
  });

  it('a refused precondition records nothing about its key', () => {
    const path = logFile([
      line('r', 'refused', { error: 'screen_changed' }),
      line('s', 'refused', { error: 'frame_unknown' }),
      line('s', 'started'),
      line('s', 'performed', { ms: 2 }),
      line('t', 'started'),
      line('t', 'performed', { ms: 1 }),
      line('t', 'refused', { error: 'screen_changed' }), // cannot happen; still changes nothing
    ]);
    expect(ActionLog.recordedKeys(path)).toEqual([
      { key: 's', outcome: 'performed', ms: 2 },
      { key: 't', outcome: 'performed', ms: 1 },
    ]);
  });

  it('keeps the last keys only', () => {
    const path = logFile(['k1', 'k2', 'k3'].map((k) => line(k, 'performed', { ms: 1 })));
    expect(ActionLog.recordedKeys(path, 2).map((k) => k.key)).toEqual(['k2', 'k3']);
  });

  it('has nothing to say about a log that is not there', () => {
    expect(ActionLog.recordedKeys(join(tmpdir(), 'no-such-dir', 'actions.log'))).toEqual([]);
  });

  it('appends lines that read back', async () => {
    const path = logFile([]);
    const log = new ActionLog(path);
    log.append({ time: 't', backend: 'sim', idempotency_key: 'x', action: {}, outcome: 'started' });
    await log.close();
    log.append({ time: 't', backend: 'sim', idempotency_key: 'y', action: {}, outcome: 'started' });
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});

describe('loggableAction', () => {
  const typed = { action: 'type' as const, text: 'Sup3r-Secret!' };

  it('keeps text typed into a plain field', () => {
    expect(loggableAction(typed, 'plain')).toEqual(typed);
  });

  it.each(['password', 'unknown'] as const)(
    'keeps only the length of text typed into a %s field',
    (into) => {
      expect(loggableAction(typed, into)).toEqual({
        action: 'type',
        text: '[redacted]',
        characters: 13,
        into,
      });
    },
  );
});
