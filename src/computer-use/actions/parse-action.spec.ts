import { runInNewContext } from 'node:vm';
import { parseAction } from './parse-action';

describe('parseAction', () => {
  it('accepts a plain object from another realm, refuses class instances and Maps', () => {
    const foreign: unknown = runInNewContext('({ action: "wait", seconds: 1 })');
    expect(parseAction(foreign)).toEqual({ ok: true, action: { action: 'wait', seconds: 1 } });
    class Wait {
      action = 'wait';
      seconds = 1;
    }
    expect(parseAction(new Wait()).ok).toBe(false);
    expect(parseAction(new Map([['action', 'wait']])).ok).toBe(false);
    const bare = Object.assign(Object.create(null) as object, { action: 'wait', seconds: 2 });
    expect(parseAction(bare).ok).toBe(true);
  });

  it('fills defaults and normalises without changing what is typed', () => {
    expect(parseAction({ action: 'scroll', x: -0, y: 3, direction: ' Down ' })).toEqual({
      ok: true,
      action: { action: 'scroll', x: 0, y: 3, direction: 'down', amount: 3 },
    });
    expect(parseAction({ action: 'type', text: '  Müller €\n' })).toEqual({
      ok: true,
      action: { action: 'type', text: '  Müller €\n' },
    });
    expect(parseAction({ action: 'click', x: 1, y: 2, target: '  Save ' })).toEqual({
      ok: true,
      action: { action: 'click', x: 1, y: 2, target: 'Save' },
    });
  });

  it('refuses a hostile object instead of throwing', () => {
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('boom');
        },
      },
    );
    expect(parseAction(hostile)).toEqual({
      ok: false,
      reason: 'the answer could not be read as an action',
    });
  });
});
