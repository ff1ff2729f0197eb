import type { StepHistory } from '../planner-contract/planner';
import {
  batchGoesOn,
  collapseOld,
  type Conversation,
  earlierScreens,
  endBatch,
  type ItemRecord,
  resultsOf,
  type TurnRecord,
} from './conversation';
import { scaleFor } from './scaling';

const scale = scaleFor({ width: 1280, height: 800 });

function item(extra: Partial<ItemRecord> = {}): ItemRecord {
  return {
    id: `t${Math.random()}`,
    toolset: true,
    kind: 'action',
    answer: { action: 'key', key: 'Tab' },
    note: null,
    seen: null,
    ...extra,
  };
}

function turn(items: ItemRecord[], extra: Partial<TurnRecord> = {}): TurnRecord {
  return {
    id: 'turn-1',
    step: 1,
    screen: 'a'.repeat(64),
    echo: [],
    callId: null,
    functionCalls: [],
    checks: [],
    items,
    next: 0,
    ...extra,
  };
}

function step(n: number, outcome: string, extra: Partial<StepHistory> = {}): StepHistory {
  return {
    n,
    action: { action: 'key', key: 'Tab' },
    classification: 'read',
    why: 'a navigation key',
    outcome,
    error: null,
    screen_sha256: null,
    ...extra,
  };
}

describe('a batch, action by action', () => {
  it('goes on while each action taken was sent (or staged) and is the run’s last step', () => {
    const t = turn([item({ step: 1 }), item({ step: 2 }), item()], { next: 2 });
    expect(batchGoesOn(t, [step(1, 'sent'), step(2, 'sent')])).toEqual({ goes: true });
    expect(batchGoesOn(t, [step(1, 'sent'), step(2, 'staged')])).toEqual({ goes: true });
  });

  it.each([
    ['held', /call 2 was a write held for a person's approval/],
    ['sent_after_approval', /call 2 was a write held/],
    ['refused', /Warden refused call 2/],
    ['screen_changed', /call 2 was not sent \(a dialog opened\)/],
    ['refused_by_application', /the application refused call 2/],
  ])('ends after a step that was %s, saying why', (outcome, why) => {
    const t = turn([item({ step: 1 }), item({ step: 2 }), item()], { next: 2 });
    const goes = batchGoesOn(t, [step(1, 'sent'), step(2, outcome, { error: 'a dialog opened' })]);
    expect(goes).toEqual({ goes: false, reason: expect.stringMatching(why) });
  });

  it('ends when the action taken last is not the run’s last step (fails closed)', () => {
    const t = turn([item({ step: 1 }), item()], { next: 1 });
    expect(batchGoesOn(t, [step(1, 'sent'), step(2, 'sent')])).toEqual({
      goes: false,
      reason: 'the batch was interrupted after call 1',
    });
    expect(batchGoesOn(t, [])).toMatchObject({ goes: false });
  });

  it('answers every call after the end "not executed" with the reason, and nothing before it', () => {
    const t = turn(
      [
        item({ step: 1 }),
        item({ step: 2 }),
        item(),
        item({ kind: 'look', answer: { action: 'screenshot' } }),
      ],
      { next: 2 },
    );
    endBatch(t, 'call 2 was a write held for a person');
    expect(t.next).toBe(4);
    const history = [step(1, 'sent'), step(2, 'sent_after_approval', { classification: 'write' })];
    const results = resultsOf(t, history, scale);
    expect(results.map((r) => r.error)).toEqual([false, false, true, true]);
    expect(results[0].text).toBe('Call 1: step 1. key Tab (a read): sent');
    expect(results[1].text).toMatch(/^Call 2: step 2\. key Tab \(a write\): approved by a person/);
    expect(results[2].text).toBe('Call 3: not executed: call 2 was a write held for a person.');
    expect(results[3].text).toBe('Call 4: not executed: call 2 was a write held for a person.');
    expect(results.map((r) => r.id)).toEqual(t.items.map((i) => i.id));
  });

  it('a look is answered with its screen, a refused step with why', () => {
    const t = turn([
      item({ kind: 'look', answer: { action: 'screenshot' }, screen: 'b'.repeat(64) }),
      item({ step: 1, note: 'Press a key once per action.' }),
    ]);
    const results = resultsOf(t, [step(1, 'refused', { classification: 'invalid' })], scale);
    expect(results[0]).toMatchObject({ error: false, image: { screen: 'b'.repeat(64) } });
    expect(results[1]).toMatchObject({
      error: true,
      text: expect.stringMatching(/refused by Warden, nothing was sent: Press a key once/),
    });
  });
});

describe('the conversation kept within history_screens', () => {
  const shown = (n: number, after: string | null = 'c'.repeat(64)) =>
    turn([item({ step: n })], { step: n, after: { step: n + 1, screen: after } });

  it('counts the start, the screen after each answer but the last, and every look', () => {
    const c: Conversation = { base: { step: 1, screen: 'a' }, turns: [shown(1), shown(2)] };
    expect(earlierScreens(c)).toBe(2);
    c.turns[1].items.push(item({ kind: 'look', answer: {}, screen: 'd' }));
    expect(earlierScreens(c)).toBe(3);
  });

  it('collapses every answer but the last at once, never the start, when it would show too many', () => {
    const c: Conversation = {
      base: { step: 1, screen: 'a' },
      turns: [shown(1), shown(2), shown(3)],
    };
    expect(collapseOld(c, 3)).toBe(false);
    c.turns.push(shown(4));
    expect(collapseOld(c, 3)).toBe(true);
    expect(c.turns.map((t) => t.collapsed === true)).toEqual([true, true, true, false]);
    expect(c.base).toEqual({ step: 1, screen: 'a' });
    expect(earlierScreens(c)).toBe(1);
    // The next answers grow the conversation again until it is full.
    c.turns.push(shown(5), shown(6));
    expect(collapseOld(c, 3)).toBe(false);
  });
});
