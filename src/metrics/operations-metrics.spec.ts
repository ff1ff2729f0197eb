import { screenChanged } from './operations-metrics.service';

describe('screenChanged', () => {
  it('adds up screen_changed steps per tenant and agent, whatever their classification', () => {
    const row = (agent: string, classification: string, outcome: string, steps: number) => ({
      tenant: 'acme',
      agent,
      classification,
      outcome,
      steps,
    });
    expect(
      screenChanged([
        row('a', 'read', 'screen_changed', 2),
        row('a', 'write', 'screen_changed', 1),
        row('a', 'read', 'sent', 9),
        row('b', 'read', 'screen_changed', 4),
      ]),
    ).toEqual([
      { labels: { tenant: 'acme', agent: 'a' }, value: 3 },
      { labels: { tenant: 'acme', agent: 'b' }, value: 4 },
    ]);
  });
});
