import { plannerView, runWindow, successRate } from './inventory-stats';

describe('successRate', () => {
  it('is completed over ended, rounded to four places', () => {
    expect(successRate(2, 3)).toBe(0.6667);
    expect(successRate(3, 3)).toBe(1);
    expect(successRate(0, 4)).toBe(0);
  });

  it('is null when no run ended, never a made-up 0', () => {
    expect(successRate(0, 0)).toBeNull();
  });
});

describe('runWindow', () => {
  it('is zeros and no rate for an agent without runs in the window', () => {
    expect(runWindow(undefined)).toEqual({ runs: 0, ended: 0, completed: 0, success_rate: null });
  });

  it('counts runs still going, which have no say in the rate', () => {
    expect(runWindow({ runs: 5, ended: 4, completed: 3 })).toEqual({
      runs: 5,
      ended: 4,
      completed: 3,
      success_rate: 0.75,
    });
  });
});

describe('plannerView', () => {
  it('names a scripted planner by id, a model by provider and model, and nothing secret', () => {
    expect(plannerView('scripted-1')).toEqual({ kind: 'scripted', id: 'scripted-1' });
    expect(plannerView('navigator-2026-11-10-normal')).toEqual({
      kind: 'catalog',
      id: 'navigator-2026-11-10-normal',
    });
    const model = plannerView({
      provider: 'anthropic',
      model: 'claude-x',
      api_key_env: 'ACME_KEY',
    } as never);
    expect(model).toEqual({ kind: 'model', provider: 'anthropic', model: 'claude-x' });
    expect(plannerView(null)).toEqual({ kind: 'default' });
  });
});
