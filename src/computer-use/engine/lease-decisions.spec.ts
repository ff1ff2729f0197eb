import { SecretRefused } from '../../secrets/secret-grants.service';
import type { StepPhase } from '../runs/step-phase';
import { ScreenError } from '../pixels/screen-error';
import {
  afterFailures,
  jobEnding,
  MAX_STEP_FAILURES,
  renewEvery,
  ruleSettings,
} from './lease-decisions';
import { RunEnds } from './run-ends';

describe('renewing a lease', () => {
  it.each([
    [30_000, 10_000],
    [3_000, 1_000],
    [1_000, 333],
    [600, 200],
    [300, 200],
  ])('a lease of %d ms is renewed every %d ms', (leaseMs, every) => {
    expect(renewEvery(leaseMs)).toBe(every);
  });
});

describe("how a job's error ends its run", () => {
  const end = new RunEnds('done', 'finished');
  const refused = new SecretRefused('not_granted', 'not granted');
  const unusable = new ScreenError('the PNG does not inflate');
  const phases: StepPhase[] = ['observing', 'planning', 'held', 'approved', 'sending', 'done'];

  it.each(phases)('as it says, a RunEnds thrown while %s', (phase) => {
    expect(jobEnding(end, phase)).toEqual({ as: 'thrown', end });
  });

  it.each(phases)('a refused secret while %s', (phase) => {
    expect(jobEnding(refused, phase)).toEqual({
      as: 'secret',
      refused,
      sending: phase === 'sending',
    });
  });

  it('a screenshot that cannot be used', () => {
    expect(jobEnding(unusable, 'observing')).toEqual({ as: 'unusable_screen', error: unusable });
  });

  it.each([
    ['an Error', new Error('connection reset')],
    ['a TypeError', new TypeError('undefined is not a function')],
    ['a thrown string', 'boom'],
    ['nothing', undefined],
  ])('anything unexpected is counted: %s', (_, error) => {
    expect(jobEnding(error, 'sending')).toEqual({ as: 'count' });
  });

  it('retries an unexpected error until the step has failed MAX_STEP_FAILURES times', () => {
    expect(MAX_STEP_FAILURES).toBe(10);
    for (let failures = 1; failures < MAX_STEP_FAILURES; failures++) {
      expect(afterFailures(failures)).toBe('retry');
    }
    expect(afterFailures(MAX_STEP_FAILURES)).toBe('end');
    expect(afterFailures(MAX_STEP_FAILURES + 1)).toBe('end');
  });
});

describe('the settings the rules are compiled from', () => {
  it('are the four classification settings, nothing else of the agent', () => {
    const agent = {
      commit_words: ['Save'],
      navigation_words: ['Back'],
      unlabelled_clicks: 'write' as const,
      screen_rules: [],
      screen_url: 'https://host.example',
      planner: 'script-1',
    };
    expect(ruleSettings(agent)).toEqual({
      commit_words: ['Save'],
      navigation_words: ['Back'],
      unlabelled_clicks: 'write',
      screen_rules: [],
    });
    // A change to the host or the planner keeps the compiled rules; one to the words does not.
    const key = (a: typeof agent) => JSON.stringify(ruleSettings(a));
    expect(key({ ...agent, screen_url: 'https://other.example' })).toBe(key(agent));
    expect(key({ ...agent, commit_words: ['Save', 'Post'] })).not.toBe(key(agent));
  });
});
