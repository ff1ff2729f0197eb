/**
 * The navigator (docs/models.md) through the real stack: API, worker, PostgreSQL, Redis and a sim
 * screen host over HTTPS. On the sim's first screen (SAP Easy Access) it presses the right menu
 * entry first for its task, thinks aloud in the step record, and its press, a write by Warden's
 * rules (the entry's name holds the committing verb "Order"), is held for a person like any
 * planner's: nothing reaches the host until someone approves it. On a host that serves no outline
 * it answers done with why, and nothing reaches that host.
 */
import { NAVIGATOR_PLANNER_ID } from '../../src/computer-use/planning/navigator/navigator-planner';
import { startSimHost, startStack, type SimHost, type Stack } from '../support/stack';

describe('the navigator, end to end', () => {
  let stack: Stack;
  /** A sim screen host that serves no outline (`--no-elements`). */
  let blind: SimHost;

  beforeAll(async () => {
    stack = await startStack();
    blind = await startSimHost({ elements: false });
    await stack.grant(blind.tokenEnv, blind.url);
    // Not public: the operator allows it to this tenant (the catalog's rule, docs/planners.md).
    await stack.allowPlanner(NAVIGATOR_PLANNER_ID);
    await stack.configure(
      { planner: NAVIGATOR_PLANNER_ID, max_steps: 1 },
      {
        'sap-blind': {
          screen_url: blind.url,
          screen_token_env: blind.tokenEnv,
          screen_tls: { fingerprint_sha256: blind.fingerprint },
          system: 'SAP GUI (sim, no outline)',
          planner: NAVIGATOR_PLANNER_ID,
        },
      },
    );
  });

  afterAll(async () => {
    await stack?.close();
    await blind?.close();
  });

  it('presses the right control first, its energies in the step, and the press is held', async () => {
    const { api, sim, tokens } = stack;
    const started = await stack.start('open the display of a sales order');
    const held = await stack.waitFor(started.id, (r) => r.status === 'awaiting_approval', 60_000);

    const [step] = held.steps;
    // The centre of the sim's "VA03 - Display Sales Order" entry (x 126, y 336, 203 × 22).
    expect(step).toMatchObject({
      n: 1,
      action: { action: 'click', x: 227, y: 347, target: 'VA03 - Display Sales Order' },
      classification: 'write',
      outcome: 'held',
      model: {
        provider: 'navigator',
        model: NAVIGATOR_PLANNER_ID,
        input_tokens: 0,
        output_tokens: 0,
        calls: 0,
        cost_usd: 0,
      },
    });
    expect(step.why).toMatch(/Order/);
    // Thinking aloud: the five lowest energies, the right control first and apart from the next.
    const notes: string = step.model.notes;
    const energies = [...notes.matchAll(/(-?\d\.\d{3}) "([^"]+)"/g)].map((m) => ({
      energy: Number(m[1]),
      name: m[2],
    }));
    expect(energies).toHaveLength(5);
    expect(energies[0].name).toBe('VA03 - Display Sales Order');
    expect(energies[1].energy).toBeGreaterThan(energies[0].energy + 0.1);
    expect(energies.map((e) => e.energy)).toEqual(
      energies.map((e) => e.energy).sort((a, b) => a - b),
    );
    expect(notes).toMatch(/presses "VA03 - Display Sales Order" \(press 1 of 8\)$/);

    // Held: the host has not been touched, and the approval names the press.
    expect((await sim.events()).filter((e) => e.type === 'action')).toEqual([]);
    expect(held.pending_approval).toMatchObject({
      status: 'pending',
      action: { action: 'click', x: 227, y: 347 },
    });
    const [kept] = await api.db.sql<{ planner_state: unknown }>(
      'SELECT planner_state FROM runs WHERE id = $1',
      [started.id],
    );
    expect(kept.planner_state).toEqual({
      planner: NAVIGATOR_PLANNER_ID,
      state: { pressed: ['VA03 - Display Sales Order'] },
    });

    // Approved by someone else and resumed: the press is sent once, and the run meets its cap.
    await stack.approveAndResume(started.id);
    const ended = await stack.waitFor(started.id, (r) => r.status === 'stopped', 60_000);
    expect(ended).toMatchObject({ end_reason: 'step_cap' });
    expect(ended.steps[0].outcome).toBe('sent_after_approval');
    const actions = (await sim.events()).filter((e) => e.type === 'action');
    expect(actions).toEqual([
      expect.objectContaining({
        action: expect.objectContaining({ action: 'click', x: 227, y: 347 }),
      }),
    ]);
    const audit = await api.request('GET', `/api/audit?run_id=${started.id}`, {
      token: tokens.auditor,
    });
    expect(audit.body.items.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['computer_use.write.held', 'computer_use.write']),
    );
  }, 120_000);

  it('answers done, saying why, where the host serves no outline: it cannot see controls', async () => {
    const started = await stack.start('open the display of a sales order', 'sap-blind');
    const run = await stack.waitFor(started.id, (r) => r.status === 'completed', 60_000);
    expect(run).toMatchObject({
      end_reason: 'done',
      summary:
        'the navigator cannot see controls: the screen host serves no element outline (GET /elements)',
    });
    expect(run.steps).toHaveLength(1);
    expect(run.steps[0]).toMatchObject({
      action: { action: 'done' },
      outcome: 'ended',
      model: { provider: 'navigator', calls: 0 },
    });
    expect((await blind.events()).filter((e) => e.type === 'action')).toEqual([]);
  }, 120_000);
});
