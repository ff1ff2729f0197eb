import { Logger } from '@nestjs/common';
import type { Caller } from '../../auth/caller';
import type { Run } from './run.entity';
import { RunsService } from './runs.service';

/** A run as the start's transaction saved it: queued, with the columns PostgreSQL filled in. */
function savedRun(): Run {
  return {
    id: '6d0f8a52-1c1e-4a55-9d55-0d8f5b1f2a10',
    tenant: 'acme',
    agent: 'sap-orders',
    goal: 'change order 4711',
    status: 'queued',
    endReason: null,
    summary: null,
    createdBy: 'olga',
    createdAt: new Date('2026-12-01T10:00:00Z'),
    startedAt: null,
    endedAt: null,
    activeSince: null,
    activeSeconds: 0,
    maxSteps: 20,
    maxSeconds: 300,
    stepCount: 0,
    invalidActions: 0,
    leaseKey: 'https://127.0.0.1:8443',
    agentConfig: { system: 'SAP GUI (sim)' },
  } as unknown as Run;
}

/** RunsService.start with everything before the commit working, and `after` for what follows. */
function service(after: { promote: () => Promise<unknown>; find: () => Promise<unknown> }) {
  const run = savedRun();
  const deps = {
    dataSource: { transaction: (work: (manager: unknown) => unknown) => work({}) },
    runs: { create: () => Promise.resolve(run), findInTenant: after.find },
    steps: {},
    approvals: {},
    lifecycle: { promote: after.promote },
    queue: {},
    stepDone: {},
    audit: { record: () => Promise.resolve() },
    admission: {
      admit: () => Promise.resolve({ version: 1, agent: { screen_url: 'https://127.0.0.1:8443' } }),
    },
    screens: {},
  };
  const args = Object.values(deps) as ConstructorParameters<typeof RunsService>;
  return { runs: new RunsService(...args), run };
}

const caller = { tenant: 'acme', subject: 'olga', tokenId: null } as unknown as Caller;

describe('starting a run, once it is committed', () => {
  it('answers the queued run, not an error, when it cannot be promoted now (the reconciler will)', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { runs, run } = service({
      promote: () => Promise.reject(new Error('timeout exceeded when trying to connect')),
      find: () => Promise.resolve(run),
    });
    await expect(runs.start(caller, { agent: 'sap-orders', goal: 'g' })).resolves.toEqual(
      expect.objectContaining({ id: run.id, status: 'queued' }),
    );
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ run: run.id }),
      'run started queued; the reconciler starts it',
    );
    warn.mockRestore();
  });

  it('answers the run as saved when reading it back fails', async () => {
    const { runs, run } = service({
      promote: () => Promise.resolve(null),
      find: () => Promise.reject(new Error('timeout exceeded when trying to connect')),
    });
    await expect(runs.start(caller, { agent: 'sap-orders', goal: 'g' })).resolves.toEqual(
      expect.objectContaining({
        id: run.id,
        status: 'queued',
        created_by: 'olga',
        system: 'SAP GUI (sim)',
      }),
    );
  });
});
