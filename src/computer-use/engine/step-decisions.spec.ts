import type { Verdict } from '../actions';
import type { SendGate } from '../runs/send-gate';
import {
  changesInWhy,
  decideWrite,
  keptState,
  looseningOf,
  refusedToSend,
  stateFor,
  stepJob,
  stopBeforeStep,
  type Switches,
} from './step-decisions';

describe('which step a job works on', () => {
  it('opens the next step only when the current one is done (or there is none)', () => {
    expect(stepJob({ stepCount: 0, currentPhase: null }, 1)).toBe('open');
    expect(stepJob({ stepCount: 2, currentPhase: 'done' }, 3)).toBe('open');
    for (const phase of ['observing', 'planning', 'held', 'approved', 'sending'] as const) {
      expect(stepJob({ stepCount: 2, currentPhase: phase }, 3)).toBe('none');
    }
  });

  it('carries on with the current step and ignores steps long past or far ahead', () => {
    expect(stepJob({ stepCount: 2, currentPhase: 'approved' }, 2)).toBe('current');
    expect(stepJob({ stepCount: 2, currentPhase: 'done' }, 1)).toBe('none');
    expect(stepJob({ stepCount: 2, currentPhase: 'done' }, 4)).toBe('none');
  });
});

const on: Switches = { enabled: true, agentConfigured: true, killSwitch: null, pause: null };

describe('stopping before a step', () => {
  const run = {
    agent: 'sap-orders',
    stepCount: 3,
    maxSteps: 20,
    maxSeconds: 300,
    activeSeconds: 10,
    activeSince: null,
  };
  const now = Date.UTC(2026, 11, 1);

  it('goes on below the caps with every switch on', () => {
    expect(stopBeforeStep(run, on, now)).toBeNull();
    const released = { ...on, killSwitch: { engaged: false, reason: null } };
    expect(
      stopBeforeStep(run, { ...released, pause: { paused: false, reason: null } }, now),
    ).toBeNull();
  });

  it('stops killed when an admin switched the agent off, whichever switch it was', () => {
    const cases: Array<[Switches, string]> = [
      [{ ...on, enabled: false }, 'computer use is turned off for this tenant'],
      [
        { ...on, agentConfigured: false },
        "agent sap-orders is no longer in the tenant's computer-use config",
      ],
      [
        { ...on, killSwitch: { engaged: true, reason: 'incident' } },
        'kill switch engaged: incident',
      ],
      [
        { ...on, pause: { paused: true, reason: 'audit week' } },
        'the tenant is paused: audit week',
      ],
    ];
    for (const [switches, summary] of cases) {
      expect(stopBeforeStep(run, switches, now)).toEqual({ reason: 'killed', summary });
    }
  });

  it('stops at the step cap, and at the time cap counted up to now', () => {
    expect(stopBeforeStep({ ...run, stepCount: 20 }, on, now)?.reason).toBe('step_cap');
    const since = new Date(now - 291_000);
    expect(stopBeforeStep({ ...run, activeSince: since }, on, now)?.reason).toBe('time_cap');
    expect(stopBeforeStep({ ...run, activeSince: new Date(now - 289_000) }, on, now)).toBeNull();
  });
});

describe('refusing to send', () => {
  const open: SendGate = {
    runStatus: 'running',
    enabled: true,
    agentConfigured: true,
    killEngaged: false,
    killReason: null,
    paused: false,
    pauseReason: null,
    approvalSpent: true,
    maskSettled: true,
    writesNeedApproval: true,
    scriptAsGranted: true,
    stagesTyping: false,
    secretGranted: true,
    looseningInForce: true,
  };

  it('lets an action go when every check holds, and leaves a run that is no longer running alone', () => {
    expect(refusedToSend(open, 'a')).toBeNull();
    expect(refusedToSend({ ...open, runStatus: 'stopped', killEngaged: true }, 'a')).toBeNull();
  });

  it('ends the run killed for any switch, and approval_expired for an approval not spent', () => {
    expect(refusedToSend({ ...open, killEngaged: true, killReason: 'x' }, 'a')).toEqual({
      reason: 'killed',
      summary: 'kill switch engaged: x',
    });
    expect(refusedToSend({ ...open, paused: true, pauseReason: 'y' }, 'a')?.summary).toBe(
      'the tenant is paused: y',
    );
    expect(refusedToSend({ ...open, enabled: false }, 'a')?.reason).toBe('killed');
    expect(refusedToSend({ ...open, agentConfigured: false }, 'a')?.reason).toBe('killed');
    expect(refusedToSend({ ...open, approvalSpent: false }, 'a')?.reason).toBe('approval_expired');
    expect(refusedToSend({ ...open, maskSettled: false }, 'a')?.reason).toBe('stale_screen');
  });

  it("ends the run not_granted when the step's secret is no longer granted, before the approval", () => {
    expect(refusedToSend({ ...open, secretGranted: false }, 'a')?.reason).toBe('not_granted');
    expect(
      refusedToSend({ ...open, secretGranted: false, approvalSpent: false }, 'a')?.reason,
    ).toBe('not_granted');
    expect(refusedToSend({ ...open, secretGranted: false, killEngaged: true }, 'a')?.reason).toBe(
      'killed',
    );
  });
});

describe('holding an action for a person', () => {
  const click = { action: 'click', x: 1, y: 2 } as const;
  const read: Verdict = { classification: 'read', action: click, why: 'a label without a verb' };
  const write: Verdict = { classification: 'write', action: click, why: '"Save" is a commit word' };
  const check = { id: 'sc1', code: 'malicious_instructions', message: null };

  it('holds a write unless the agent needs no approval, and sends a read', () => {
    expect(decideWrite(write, [], true)).toEqual({
      go: 'hold',
      why: write.why,
      classification: 'write',
    });
    expect(decideWrite(write, [], false)).toEqual({ go: 'send' });
    expect(decideWrite(read, [], true)).toEqual({ go: 'send' });
  });

  it('stages an edit under commit-point approval, and says why an edit is held or what a commit commits', () => {
    const typing: Verdict = {
      classification: 'write',
      action: { action: 'type', text: 'x' },
      why: 'typing',
    };
    const staged = { staged: { field: {} }, notStaged: null, changes: null };
    expect(decideWrite(typing, [], true, staged)).toEqual({
      go: 'stage',
      why: 'typing; staged until the next commit, which is held',
    });
    // Safety checks win over staging; an agent without approval sends.
    expect(decideWrite(typing, [check], true, staged)).toMatchObject({ go: 'hold' });
    expect(decideWrite(typing, [], false, staged)).toEqual({ go: 'send' });
    const held = decideWrite(typing, [], true, {
      staged: null,
      notStaged: 'the text holds a newline: a person decides',
      changes: null,
    });
    expect(held).toMatchObject({
      go: 'hold',
      why: 'typing; not staged: the text holds a newline: a person decides',
    });
    const line = { read_back_check: 'same' as const };
    const commit = decideWrite(write, [], true, {
      staged: null,
      notStaged: null,
      changes: [line, line],
    });
    expect(commit).toMatchObject({ go: 'hold', why: `${write.why}; it commits 2 staged changes` });
  });

  it('counts in the why only what the change list says the commit stores, and says the rest apart', () => {
    const staged = { read_back_check: 'same' as const };
    const navigation = { read_back_check: 'earlier' as const, kind: 'navigation' as const };
    const unexplained = { read_back_check: 'unexplained' as const };
    expect(changesInWhy([navigation, staged])).toBe('; it commits 1 staged change');
    expect(changesInWhy([staged, unexplained])).toBe(
      '; it commits 1 staged change; the application marks 1 field changed without a typed edit',
    );
    expect(changesInWhy([unexplained, unexplained])).toBe(
      '; the application marks 2 fields changed without a typed edit',
    );
    expect(changesInWhy([navigation])).toBe('');
    // A field typed on an earlier screen Warden cannot tell was navigation is a change.
    expect(changesInWhy([{ read_back_check: 'earlier' as const }])).toBe(
      '; it commits 1 staged change',
    );
  });

  it('holds any screen action on a screen the injection rail flagged, even a read, even without approval', () => {
    const commit = { staged: null, notStaged: null, changes: null };
    const flagged = {
      ...commit,
      rail: { verdict: 'suspect' as const },
      railWhy: 'text for the AI',
    };
    expect(decideWrite(read, [], false, flagged)).toEqual({
      go: 'hold',
      why: 'text for the AI; the rules say: a label without a verb',
      classification: 'write',
    });
    expect(decideWrite(read, [], true, { ...commit, rail: { verdict: 'clean' } })).toEqual({
      go: 'send',
    });
    const done: Verdict = {
      classification: 'read',
      action: { action: 'done', summary: 's' },
      why: 'done',
    };
    expect(decideWrite(done, [], true, flagged)).toEqual({ go: 'send' });
  });

  it("holds a write a script's fallback model chose even for an agent whose writes need no approval", () => {
    const facts = { staged: null, notStaged: null, changes: null };
    const offScript = { ...facts, offScript: true };
    expect(decideWrite(write, [], false, offScript)).toEqual({
      go: 'hold',
      why: expect.stringMatching(/^"Save" is a commit word; the script's fallback model chose it/),
      classification: 'write',
    });
    // The script's own writes go as the agent allows; a fallback's read is sent.
    expect(decideWrite(write, [], false, { ...facts, offScript: false })).toEqual({ go: 'send' });
    expect(decideWrite(read, [], false, offScript)).toEqual({ go: 'send' });
    // With approval on, a fallback's write is held (or staged) as any write.
    expect(decideWrite(write, [], true, offScript)).toEqual({
      go: 'hold',
      why: write.why,
      classification: 'write',
    });
  });

  it('holds anything a provider raised safety checks on, even a read, even without approval', () => {
    const held = decideWrite(read, [check], false);
    expect(held).toMatchObject({ go: 'hold', classification: 'write' });
    expect((held as { why: string }).why).toMatch(
      /malicious_instructions.*the rules say: a label without a verb/,
    );
  });
});

describe('the weakening a read rests on', () => {
  const agent = {
    unlabelled_clicks: 'read',
    navigation_words: ['Weiterblättern'],
    screen_rules: [{ command_field: { transactions: ['VA02'] } }],
  };

  it('is the config field as it was: unlabelled_clicks, navigation_words, or the whole list of screen rules', () => {
    expect(looseningOf({ unlabelledClicks: 'read' }, agent)).toEqual({ unlabelled_clicks: 'read' });
    expect(looseningOf({ navigationWords: true }, agent)).toEqual({
      navigation_words: ['Weiterblättern'],
    });
    expect(looseningOf({ screenRule: 1 }, agent)).toEqual({ screen_rules: agent.screen_rules });
    expect(looseningOf(undefined, agent)).toBeNull();
  });
});

describe("the planner's state", () => {
  const script = 'scripted-7b0c6d3e-2f4a-4c1e-9a8b-1d2e3f4a5b6c';
  const model = { provider: 'anthropic', model: 'claude', base_url: null, api_key_env: 'K' };

  it('goes back to the planner that kept it', () => {
    for (const planner of [script, model, null]) {
      const stored = JSON.parse(keptState(planner, { cursor: 3 })) as unknown;
      expect(stateFor(stored, planner)).toEqual({ cursor: 3 });
    }
  });

  it('is dropped when the agent was given another planner, and when nothing usable was kept', () => {
    const stored = JSON.parse(keptState(script, { cursor: 3 })) as unknown;
    expect(stateFor(stored, 'scripted-00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(stateFor(stored, model)).toBeNull();
    expect(stateFor(stored, null)).toBeNull();
    const other = JSON.parse(keptState({ ...model, model: 'other' }, 1)) as unknown;
    expect(stateFor(other, model)).toBeNull();
    for (const junk of [null, 3, 'x', [1], { cursor: 3 }])
      expect(stateFor(junk, script)).toBeNull();
  });
});
