import { RemotePlannerError } from '../remote/remote-errors';
import { BudgetExhaustedError } from '../models/model-errors';
import { SecretRefused } from '../../secrets/secret-grants.service';
import type { OutlineElement, Verdict } from '../actions';
import type { ObservedScreen, StepHistory } from '../planner-contract/planner';
import type { RailRecord } from '../rail/screen-rail';
import { ScreenError } from '../pixels/screen-error';
import { ScreenHostError } from '../host-client/screen-host.client';
import {
  batchStop,
  decisionFields,
  plannerChanged,
  plannerUnavailableEnd,
  lastClickFocus,
  observeFailure,
  planFailure,
  safeJson,
  screenFields,
  UNUSABLE_SCREEN_ATTEMPTS,
} from './planning-decisions';
import { RunEnds } from './run-ends';

const status: OutlineElement = {
  id: 's',
  role: 'status',
  name: 'Order 4711 saved',
  rect: { x: 0, y: 580, width: 800, height: 20 },
  message_type: 'S',
};
const save: OutlineElement = {
  id: 'b',
  role: 'button',
  name: 'Save',
  rect: { x: 100, y: 100, width: 60, height: 20 },
};

const screen: ObservedScreen = {
  sha256: 'a'.repeat(64),
  pixelSha256: 'b'.repeat(64),
  width: 800,
  height: 600,
  png: Buffer.from('png'),
  outline: [save, status],
};

describe('a failed look at the screen', () => {
  const unusable = new ScreenError('the PNG does not inflate');
  it('ends the run on the screen host failing, whichever attempt', () => {
    for (const attempt of [1, UNUSABLE_SCREEN_ATTEMPTS]) {
      const failed = observeFailure(new ScreenHostError('timeout', 'no answer'), attempt);
      expect(failed).toBeInstanceOf(RunEnds);
      expect(failed).toMatchObject({ reason: 'screen_host_error' });
    }
  });

  it.each([
    ['an unusable screenshot, first attempt', unusable, 1, 'retry'],
    ['an unusable screenshot, second attempt', unusable, 2, 'retry'],
    ['an unusable screenshot, the last attempt', unusable, UNUSABLE_SCREEN_ATTEMPTS, 'throw'],
    ['anything else, first attempt', new Error('the store failed'), 1, 'throw'],
  ])('%s: %s', (_, error, attempt, expected) => {
    expect(observeFailure(error, attempt)).toBe(expected);
  });
});

describe("how a planner's failure ends the run", () => {
  it.each([
    [
      'a look that met a host failure',
      new ScreenHostError('unreachable', 'refused'),
      'screen_host_error',
      false,
    ],
    [
      'a model key no longer granted',
      new SecretRefused('not_granted', 'not granted'),
      'not_granted',
      false,
    ],
    ['a model key not set', new SecretRefused('unset', 'unset'), 'screen_host_error', false],
    [
      'the budget spent',
      new BudgetExhaustedError('the month budget is spent'),
      'budget_exhausted',
      false,
    ],
    [
      'a remote planner with no decision',
      new RemotePlannerError('planner_timeout', 'no decision'),
      'model_error',
      false,
    ],
    ['anything else', new Error('HTTP 500'), 'model_error', true],
  ])('%s', (_, error, reason, unexpected) => {
    const failed = planFailure(error);
    expect(failed.end).toBeInstanceOf(RunEnds);
    expect(failed.end.reason).toBe(reason);
    expect(failed.unexpected).toBe(unexpected);
  });

  it('says what the budget and the model said', () => {
    expect(planFailure(new BudgetExhaustedError('spent')).end).toMatchObject({
      summary: 'spent',
      step: { outcome: null, fields: { error: 'spent' } },
    });
    expect(planFailure(new Error('HTTP 500')).end.summary).toBe('the planner failed: HTTP 500');
  });

  it("names a remote planner's failure by its code first, on the run and the step", () => {
    const end = planFailure(new RemotePlannerError('planner_offline', 'no worker asked')).end;
    expect(end).toMatchObject({
      reason: 'model_error',
      summary: 'planner_offline: no worker asked',
      step: { outcome: null, fields: { error: 'planner_offline: no worker asked' } },
    });
  });
});

describe("the step's decision as it is recorded", () => {
  const click = { action: 'click' as const, x: 130, y: 110 };
  const read: Verdict = { classification: 'read', action: click, why: 'a click on a menu' };

  it('records the screen, the action and why, and the message on the screen before a screen action', () => {
    expect(decisionFields(screen, read, { action: click, model: null }, null)).toEqual({
      ...screenFields(screen),
      screenTitle: null,
      plannerSha256: null,
      action: click,
      classification: 'read',
      why: 'a click on a menu',
      model: null,
      labelEvidence: null,
      receipt: {
        before: { source: 'status', type: 'S', text: 'Order 4711 saved' },
      },
    });
  });

  it("records the content hash of the script that planned it, and null for any other planner's", () => {
    const sha = 'ab'.repeat(32);
    const scripted = { action: click, plannedBy: 'script' as const, scriptSha256: sha };
    expect(decisionFields(screen, read, scripted, null)).toMatchObject({
      plannedBy: 'script',
      plannerSha256: sha,
    });
    const fallback = { ...scripted, plannedBy: 'fallback' as const };
    expect(decisionFields(screen, read, fallback, null).plannerSha256).toBe(sha);
    expect(decisionFields(screen, read, { action: click }, null).plannerSha256).toBeNull();
  });

  it('records how the label was read where the verdict says', () => {
    const evidence = { source: 'none' as const, of: 'click' as const, why: 'nothing was read' };
    expect(
      decisionFields(screen, { ...read, labelEvidence: evidence }, { action: click }, null),
    ).toMatchObject({ labelEvidence: evidence });
  });

  it('keeps no message for actions that do not reach the screen, and none where there is no outline', () => {
    const done: Verdict = {
      classification: 'read',
      action: { action: 'done', summary: 'ok' },
      why: 'the run is done',
    };
    expect(decisionFields(screen, done, { action: done.action }, null)).not.toHaveProperty(
      'receipt',
    );
    const blind = decisionFields({ ...screen, outline: null }, read, { action: click }, null);
    expect(blind.receipt).toEqual({ before: null });
  });

  it("records the rail's record for a model's step", () => {
    const rail: RailRecord = {
      verdict: 'clean',
      rule: null,
      text_sha256: null,
      source: null,
      rect: null,
    };
    expect(decisionFields(screen, read, { action: click }, rail).rail).toBe(rail);
  });

  it('records a refused answer as it may be recorded, or made safe', () => {
    const masked = { action: 'type' as const, text: '•••• •••• •••• 1111' };
    const refused: Verdict = {
      classification: 'invalid',
      action: null,
      why: 'a card number',
      recorded: masked,
    };
    expect(decisionFields(screen, refused, { action: {} }, null).action).toBe(masked);
    const bare: Verdict = { classification: 'invalid', action: null, why: 'not an action' };
    const answer = { action: 'type', text: 'pay 4111 1111 1111 1111' };
    const recorded = decisionFields(screen, bare, { action: answer }, null).action;
    expect(JSON.stringify(recorded)).not.toContain('4111 1111 1111 1111');
  });
});

describe('a refused answer made safe', () => {
  it('keeps a small answer, masks card numbers and bounds a large one', () => {
    expect(safeJson({ action: 'wait', seconds: 2 })).toEqual({ action: 'wait', seconds: 2 });
    expect(JSON.stringify(safeJson({ text: '4111 1111 1111 1111' }))).not.toContain('4111 1111');
    const big = safeJson({ text: 'x'.repeat(5000) }) as { truncated: string };
    expect(big.truncated).toHaveLength(4000);
  });

  it('records nothing for what is no JSON', () => {
    expect(safeJson(undefined)).toBeNull();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(safeJson(cyclic)).toBeNull();
  });
});

describe('where typing goes when the host marks no focus', () => {
  const history = (action: unknown): StepHistory[] => [
    {
      n: 1,
      action,
      classification: 'read',
      why: null,
      outcome: 'sent',
      error: null,
      screen_sha256: null,
    },
  ];
  it('the element the run last clicked, on this screen', () => {
    expect(lastClickFocus(history({ action: 'click', x: 110, y: 105 }), screen)).toBe(save);
    expect(lastClickFocus(history({ action: 'click', x: 5, y: 5 }), screen)).toBeNull();
    expect(lastClickFocus(history({ action: 'key', key: 'Enter' }), screen)).toBeNull();
    expect(
      lastClickFocus(history({ action: 'click', x: 110, y: 105 }), { ...screen, outline: null }),
    ).toBeNull();
  });
});

describe('a refused answer as it is recorded', () => {
  it('masks a card number given as a JSON number, and stays JSON', () => {
    expect(safeJson({ action: 'type', text: 4111111111111111 })).toEqual({
      action: 'type',
      text: '••••••••••••1111',
    });
  });
});

describe('a planner put in force while the run goes on', () => {
  const model = { provider: 'anthropic', model: 'claude', api_key_env: 'K', base_url: null };

  it.each<[string, unknown, unknown, boolean]>([
    ['the same script', 'scripted-a', 'scripted-a', false],
    [
      'the same model, its keys in another order',
      model,
      { ...model, provider: 'anthropic' },
      false,
    ],
    ['no planner both times (the default)', null, undefined, false],
    ['another script', 'scripted-a', 'scripted-b', true],
    ['a model instead of the default', null, model, true],
    ['another model', model, { ...model, model: 'claude-opus' }, true],
  ])('%s: changed %s', (_, started, inForce, changed) => {
    expect(plannerChanged(started, inForce)).toBe(changed);
  });

  it('that its starter may not use stops the run not_granted, naming planner_unavailable', () => {
    const end = plannerUnavailableEnd('sap-orders', 'navigator-2026-11-10-normal is not public.');
    expect(end).toMatchObject({
      reason: 'not_granted',
      summary:
        'planner_unavailable: agent "sap-orders" cannot plan: navigator-2026-11-10-normal is not public.',
      step: { outcome: null, fields: { error: end.summary } },
    });
  });
});

describe('an action of a batch, judged on the screen as it is when its turn comes', () => {
  const click = { action: 'click' as const, x: 130, y: 110 };
  const read: Verdict = { classification: 'read', action: click, why: 'a click' };
  const seenSave = {
    dialogs: [],
    element: { role: 'button', name: 'Save', rect: { x: 100, y: 100, width: 60, height: 20 } },
  };
  const batch = { turn: 't', place: 2, seen: seenSave };

  it('is recorded with its turn and place', () => {
    expect(decisionFields(screen, read, { action: click, model: null, batch }, null)).toMatchObject(
      {
        batch: { turn: 't', place: 2 },
      },
    );
  });

  it('goes where the screen still shows what the model saw, and stops where it does not', () => {
    expect(batchStop({ batch }, read, screen)).toBeNull();
    const moved = { ...screen, outline: [{ ...save, rect: { ...save.rect, y: 300 } }, status] };
    expect(batchStop({ batch }, read, moved)).toMatch(
      /^not sent: where it lands the screen shows no element.*; the batch stops here \(call 2 of its turn\)$/,
    );
  });

  it('compares nothing for the first action of a turn, nor for what reaches no screen', () => {
    const moved = { ...screen, outline: [status] };
    expect(batchStop({ batch: { ...batch, seen: null } }, read, moved)).toBeNull();
    const wait: Verdict = {
      classification: 'read',
      action: { action: 'wait', seconds: 1 },
      why: 'w',
    };
    expect(batchStop({ batch }, wait, moved)).toBeNull();
    expect(batchStop({}, read, moved)).toBeNull();
  });
});
