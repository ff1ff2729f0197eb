/**
 * The admin page's sections as data: the pause and the planner catalog (browser/admin-view.ts),
 * the agents' inventory (browser/inventory-view.ts) and oversight (browser/oversight-view.ts). The
 * console e2e tests check the nodes in Chromium.
 */
import { catalogLead, catalogRow, pausedNews, pauseLead, pauseView } from './browser/admin-view';
import { inventoryRow, windowInWords } from './browser/inventory-view';
import { approverCells, oversightLead, testView } from './browser/oversight-view';
import { clock } from './browser/words';
import type {
  CatalogPlanner,
  InventoryAgent,
  OversightReport,
  OversightTest,
} from './browser/api-types';

const AT = '2026-03-15T10:05:00Z';

describe('the admin page as data', () => {
  it('shows the pause and what the form does next: pause with a reason, or resume', () => {
    expect(pauseView({ paused: false, reason: null, updated_by: null, updated_at: null })).toEqual({
      className: 'status status-running',
      text: 'Not paused',
      facts: [
        ['Reason', ''],
        ['By', ''],
        ['When', ''],
      ],
      button: 'Pause every agent',
      next: true,
      reasonRequired: true,
    });
    const paused = { paused: true, reason: 'quarter close', updated_by: 'ada', updated_at: AT };
    expect(pauseView(paused)).toEqual({
      className: 'status status-stopped',
      text: 'Paused',
      facts: [
        ['Reason', 'quarter close'],
        ['By', 'ada'],
        ['When', clock(AT)],
      ],
      button: 'Resume every agent',
      next: false,
      reasonRequired: false,
    });
    expect(pausedNews(paused)).toBe('Every agent is paused.');
    expect(pausedNews({ ...paused, paused: false })).toBe('The agents may act again.');
    expect(pauseLead('acme')).toMatch(/^One switch for every agent of tenant acme: /);
  });

  it('says each planner of the catalog: where it runs, whether it sees the screen, and why', () => {
    const planner: CatalogPlanner = {
      id: 'navigator-1',
      name: 'Navigator',
      family: 'navigator',
      runs: 'platform',
      pixels: false,
      public: true,
      tags: [],
      programs: [],
      available: true,
      why: 'public',
    };
    expect(catalogRow(planner)).toEqual({
      id: 'navigator-1',
      name: 'Navigator',
      className: 'available',
      runs: ['platform', ''],
      available: 'yes',
      why: 'public',
    });
    const remote = { ...planner, runs: 'remote' as const, pixels: true, available: false };
    expect(catalogRow({ ...remote, serving: true })).toMatchObject({
      className: 'unavailable',
      runs: ['remote, serving', ', sees the screen'],
      available: 'no',
    });
    expect(catalogRow(remote).runs[0]).toBe('remote, not serving');
    expect(catalogLead({ default: null, tags: [], planners: [] })).toBe(
      "What an agent's planner may name for you (only the deployment operator changes it). Default: none. Your tags: none.",
    );
    expect(catalogLead({ default: 'navigator-1', tags: ['eu', 'gpu'], planners: [] })).toMatch(
      /Default: navigator-1\. Your tags: eu, gpu\.$/,
    );
  });
});

describe('the inventory as data', () => {
  const agent: InventoryAgent = {
    agent: 'sap',
    system: null,
    screen_host: 'https://screens.example/sap',
    planner: { kind: 'default' },
    write_approval: { require_write_approval: true, approve_at: 'commit' },
    last_run: null,
    runs_7d: { runs: 0, ended: 0, completed: 0, success_rate: null },
    runs_30d: { runs: 3, ended: 3, completed: 2, success_rate: 2 / 3 },
    approvals_30d: { decided: 0, median_seconds_to_decide: null },
  };

  it('says an agent’s planner, approval mode, last run and how its runs and approvals went', () => {
    expect(inventoryRow(agent)).toEqual({
      agent: 'sap',
      system: '',
      screenHost: 'https://screens.example/sap',
      planner: "the deployment's default model",
      approval: 'at each commit (typing staged)',
      lastRun: null,
      runs7: '0 runs',
      runs30: '3 runs · 67% of 3 ended done',
      decide: 'no decisions',
    });
    const busy: InventoryAgent = {
      ...agent,
      planner: { kind: 'model', provider: 'anthropic', model: 'claude' },
      write_approval: { require_write_approval: false, approve_at: 'every_write' },
      last_run: { id: 'r1', status: 'completed', end_reason: 'done', ended_at: AT },
      approvals_30d: { decided: 4, median_seconds_to_decide: 90 },
    };
    expect(inventoryRow(busy)).toMatchObject({
      planner: 'anthropic claude',
      approval: 'none: writes act straight away',
      lastRun: { href: '/console/runs/r1', status: expect.any(String) as string, ended: clock(AT) },
      decide: '1 min (median of 4)',
    });
    expect(inventoryRow({ ...busy, planner: { kind: 'scripted', id: 'scripted-1' } }).planner).toBe(
      'scripted (scripted-1)',
    );
    expect(inventoryRow({ ...busy, planner: { kind: 'catalog', id: 'nav-1' } }).planner).toBe(
      'nav-1',
    );
    expect(windowInWords({ runs: 1, ended: 0, completed: 0, success_rate: null })).toBe(
      '1 run · none ended',
    );
  });
});

describe('oversight as data', () => {
  it('says since when, and when a person is flagged', () => {
    const report: OversightReport = {
      settings: { flag_after_decisions: 20, flag_median_seconds: 5 },
      since: AT,
      approvers: [],
      flagged: [],
      tests: [],
    };
    expect(oversightLead(report)).toBe(
      `Decisions since ${clock(AT)}. A person is flagged when their latest 20 decisions hold no rejection and the median time from opening the page to deciding is under 5 s.`,
    );
  });

  it('says how each seeded test came out', () => {
    const test: OversightTest = {
      id: 't1',
      agent: 'sap',
      goal: 'Pay invoice 99',
      seeded_by: 'ada',
      created_at: AT,
      expires_at: AT,
      outcome: 'caught',
      decided_by: 'bob',
      decided_at: AT,
      decided_via: 'slack',
    };
    expect(testView(test)).toEqual({
      id: 't1',
      outcome: 'caught',
      lead: `${clock(AT)} · sap · “Pay invoice 99” (seeded by ada): `,
      result: 'caught: rejected by bob',
      via: ' (slack)',
    });
    expect(testView({ ...test, outcome: 'missed', decided_via: null })).toMatchObject({
      result: 'missed: approved by bob',
      via: '',
    });
    expect(testView({ ...test, outcome: 'waiting' }).result).toBe('waiting for a decision');
    expect(testView({ ...test, outcome: 'expired' }).result).toBe('expired: nobody decided');
  });

  it('gives an approver’s figures per agent, in the columns’ order', () => {
    const figures = {
      approver: 'bob',
      agent: 'sap',
      decisions: 4,
      approved: 3,
      rejected: 1,
      timed: 3,
      median_seconds: 12,
      approved_changes_unseen: 1,
      approved_changes_unknown: 2,
      in_chat: 1,
    };
    expect(approverCells(figures)).toEqual([
      'sap',
      '4',
      '1 (25 %)',
      '12 s over 3 decided on the page',
      '1 (+2 away from the page)',
      '1',
    ]);
    expect(
      approverCells({
        ...figures,
        decisions: 0,
        rejected: 0,
        median_seconds: null,
        approved_changes_unknown: 0,
      }),
    ).toEqual(['sap', '0', '0 (–)', 'not known (none decided on the page)', '1', '1']);
  });
});
