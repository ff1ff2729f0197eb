import { type GateRow, toGate } from './send-gate';

const row: GateRow = {
  run_status: 'running',
  enabled: true,
  agent_configured: true,
  kill_engaged: false,
  kill_reason: null,
  paused: false,
  pause_reason: null,
  approval_spent: true,
  mask_settled: true,
  writes_need_approval: false,
  script_as_granted: true,
  stages_typing: false,
  secret_granted: true,
  loosening_in_force: true,
};

describe('the send gate as the engine reads it', () => {
  it.each<[string, Partial<GateRow>, { writesNeedApproval: boolean; scriptAsGranted: boolean }]>([
    [
      'writes need no approval, planned as granted',
      {},
      { writesNeedApproval: false, scriptAsGranted: true },
    ],
    [
      'writes need no approval, planned by other content: a person decides',
      { script_as_granted: false },
      { writesNeedApproval: true, scriptAsGranted: false },
    ],
    [
      'writes held anyway: what planned the step does not matter',
      { writes_need_approval: true, script_as_granted: false },
      { writesNeedApproval: true, scriptAsGranted: true },
    ],
  ])('%s', (_, fields, expected) => {
    expect(toGate({ ...row, ...fields })).toMatchObject(expected);
  });
});
