import { startApi, TestApi } from '../support/api';

/**
 * Weakening (docs/security.md): every config change that lets more happen without a person needs
 * `governance.weaken` and a reason, and is audited `governance.weaken` with its from → to.
 */

const AGENT = {
  screen_url: 'https://127.0.0.1:8443',
  screen_token_env: 'SIM_HOST_TOKEN',
};

const SCRIPT = 'scripted-6f1c2a94-0e3b-4d6a-9b1c-2d3e4f5a6b7c';
const COMMAND_FIELD = { command_field: { transactions: ['VA02', 'VA03'] } };
const ENTER_READ = { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } };
/** A screen rule that only makes writes: any admin's. */
const TAB_WRITE = { title: '^Change Sales Order', keys: { Tab: 'write' } };
/** "Everything on this screen navigates, except Save" (issue 24): a read rule and its exception. */
const OVERVIEW = '^Change Standard Order \\d+: Overview$';
const NAVIGATES = { title: OVERVIEW, labels: { '.*': 'read' } };
const SAVE_WRITES = { title: OVERVIEW, labels: { '^Save$': 'write' } };
const SCREEN = { x: 0, y: 0, width: 1024, height: 768 };
const LOOSE = { require_write_approval: false, reason: 'read-only reporting system' };

/** Each row: the agent before, after, and the weakening as the 403 and the audit name it. */
interface Case {
  control: string;
  /** The agent's name, where two rows test one control. */
  agent?: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** What the 403 says the change does. */
  says: string;
  from: unknown;
  to: unknown;
  /** What in it loosens, where the event says (screen rules). */
  entries?: string[];
}

const CASES: Case[] = [
  {
    control: 'require_write_approval',
    before: {},
    after: { require_write_approval: false },
    says: 'turning require_write_approval off',
    from: true,
    to: false,
  },
  {
    control: 'four_eyes',
    before: {},
    after: { four_eyes: false },
    says: 'turning four_eyes off',
    from: true,
    to: false,
  },
  {
    control: 'unlabelled_clicks',
    before: {},
    after: { unlabelled_clicks: 'read' },
    says: 'setting unlabelled_clicks to "read"',
    from: 'write',
    to: 'read',
  },
  {
    control: 'approval_timeout_seconds',
    before: {},
    after: { approval_timeout_seconds: 604_800 },
    says: 'raising approval_timeout_seconds above the default 3600',
    from: 3600,
    to: 604_800,
  },
  {
    control: 'commit_words',
    before: { commit_words: ['Buchen', 'Sichern'] },
    after: { commit_words: ['Sichern'] },
    says: 'removing commit words',
    from: ['Buchen', 'Sichern'],
    to: ['Sichern'],
  },
  {
    control: 'approve_at',
    before: {},
    after: { approve_at: 'commit' },
    says: 'setting approve_at to "commit"',
    from: 'every_write',
    to: 'commit',
  },
  {
    control: 'approvers',
    before: { approvers: ['group:sap-leads'] },
    after: { approvers: [] },
    says: 'widening approvers (adding an entry, or emptying the list: anyone with agents.approve)',
    from: ['group:sap-leads'],
    to: [],
  },
  {
    control: 'escalate_to',
    before: { approvers: ['group:sap-leads'] },
    after: {
      approvers: ['group:sap-leads'],
      escalate_after_seconds: 600,
      escalate_to: ['group:heads'],
    },
    says: 'escalating to someone not among approvers or escalate_to before',
    from: [],
    to: ['group:heads'],
  },
  {
    control: 'ignore_regions',
    before: {},
    after: { ignore_regions: [SCREEN] },
    says: 'ignore_regions covering more than 2% of the screen',
    from: [],
    to: [SCREEN],
  },
  {
    // Approved on a screen with no pixel that is not black.
    control: 'redact_regions',
    before: {},
    after: { redact_regions: [SCREEN] },
    says: 'redact_regions covering more than 2% of the screen',
    from: [],
    to: [SCREEN],
  },
  {
    control: 'screen_rules',
    before: { screen_rules: [COMMAND_FIELD], reason: 'transaction codes are navigation' },
    after: { screen_rules: [COMMAND_FIELD, ENTER_READ] },
    says: 'a screen rule change that may make a write a read',
    from: [COMMAND_FIELD],
    to: [COMMAND_FIELD, ENTER_READ],
    entries: ['now a read: key Enter on titles matching “^Change Sales Order: Initial Screen$”'],
  },
  {
    control: 'screen_rules',
    agent: 'w-save-exception',
    before: { screen_rules: [NAVIGATES, SAVE_WRITES], reason: 'the overview only navigates' },
    after: { screen_rules: [NAVIGATES] },
    says: 'a screen rule change that may make a write a read',
    from: [NAVIGATES, SAVE_WRITES],
    to: [NAVIGATES],
    entries: [`no longer a write: labels matching “^Save$” on titles matching ${`“${OVERVIEW}”`}`],
  },
  {
    control: 'screen_url',
    before: LOOSE,
    after: { ...LOOSE, screen_url: 'https://elsewhere.internal:8443' },
    says: 'a new screen_url for an agent whose writes need no approval',
    from: AGENT.screen_url,
    to: 'https://elsewhere.internal:8443',
  },
  {
    control: 'planner',
    before: LOOSE,
    after: { ...LOOSE, planner: SCRIPT },
    says: 'a new planner, or new content of its script, for an agent whose writes need no approval',
    from: null,
    to: SCRIPT,
  },
];

describe('weakening the governance of an agent', () => {
  let api: TestApi;
  let admin: string;
  let weakener: { id: string; token: string };
  let auditor: string;

  beforeAll(async () => {
    api = await startApi();
    admin = (await api.token('acme', 'ada', ['computer_use.admin'])).token;
    weakener = await api.token('acme', 'wes', ['computer_use.admin', 'governance.weaken']);
    auditor = (await api.token('acme', 'aud', ['audit.read'])).token;
  });

  afterAll(async () => {
    await api.close();
  });

  const put = (agents: Record<string, Record<string, unknown>>, token: string) =>
    api.request('PUT', '/api/admin/computer-use', { token, json: { enabled: true, agents } });
  const version = async (): Promise<number> =>
    (await api.request('GET', '/api/admin/computer-use', { token: admin })).body.version;
  const weakened = async () => {
    const result = await api.request('GET', '/api/audit?type=governance.weaken&limit=200', {
      token: auditor,
    });
    expect(result.status).toBe(200);
    return result.body.items as Array<{ type: string; actor: string; details: unknown }>;
  };
  /** Puts `fields` in force as agent `name`, by whoever may. */
  const setUp = async (name: string, fields: Record<string, unknown>) => {
    const result = await put({ [name]: { ...AGENT, ...fields } }, weakener.token);
    expect(result.status).toBe(200);
  };

  describe.each(CASES)(
    '$control $agent',
    ({ control, agent, before, after, says, from, to, entries }) => {
      const name = agent ?? `w-${control.replace(/_/g, '-')}`;
      const reason = `e2e: ${control}`;

      it('is refused for an admin without governance.weaken, naming it, and nothing changes', async () => {
        await setUp(name, before);
        const at = await version();
        const audited = (await weakened()).length;
        const result = await put({ [name]: { ...AGENT, ...after, reason } }, admin);
        expect(result.status).toBe(403);
        expect(result.body).toEqual({
          statusCode: 403,
          error: 'Forbidden',
          message: `${says} (agent ${name}) needs the permission governance.weaken as well as computer_use.admin`,
        });
        expect(await version()).toBe(at);
        expect(await weakened()).toHaveLength(audited);
      });

      it('is refused without a reason, even with governance.weaken (400 naming the field)', async () => {
        await setUp(name, before);
        const at = await version();
        const result = await put({ [name]: { ...AGENT, ...after, reason: null } }, weakener.token);
        expect(result.status).toBe(400);
        expect(result.body.message).toContain(`agents.${name}.reason is required when`);
        expect(await version()).toBe(at);
      });

      it('is accepted with governance.weaken and a reason, and audited with from and to', async () => {
        await setUp(name, before);
        const audited = (await weakened()).length;
        const result = await put({ [name]: { ...AGENT, ...after, reason } }, weakener.token);
        expect(result.status).toBe(200);
        const events = await weakened();
        expect(events).toHaveLength(audited + 1);
        expect(events.at(-1)).toMatchObject({ type: 'governance.weaken', actor: 'wes' });
        expect(events.at(-1)!.details).toEqual({
          agent: name,
          control,
          from,
          to,
          ...(entries ? { entries } : {}),
          reason,
          version: result.body.version,
          token_id: weakener.id,
        });
      });
    },
  );

  describe('what is not a weakening', () => {
    /** One agent with every control loosened. */
    const WEAK = {
      ...LOOSE,
      four_eyes: false,
      unlabelled_clicks: 'read',
      approval_timeout_seconds: 86_400,
      ignore_regions: [SCREEN],
      redact_regions: [SCREEN],
      planner: SCRIPT,
      screen_rules: [COMMAND_FIELD, ENTER_READ],
    };

    it('lets an admin PUT back a weak config unchanged, auditing no weakening', async () => {
      await setUp('weak', WEAK);
      const read = (await api.request('GET', '/api/admin/computer-use', { token: admin })).body;
      const audited = (await weakened()).length;
      const again = await api.request('PUT', '/api/admin/computer-use', {
        token: admin,
        json: read,
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ version: read.version + 1, agents: read.agents });
      expect(await weakened()).toHaveLength(audited);
    });

    it('lets an admin tighten every control, auditing no weakening', async () => {
      await setUp('weak', WEAK);
      const audited = (await weakened()).length;
      const tightened = await put(
        {
          weak: {
            ...AGENT,
            commit_words: ['Freigeben'],
            approval_timeout_seconds: 600,
            ignore_regions: [{ x: 900, y: 0, width: 100, height: 20 }],
            redact_regions: [{ x: 0, y: 740, width: 1024, height: 28 }],
            planner: 'scripted-00000000-0000-4000-8000-000000000000',
            screen_rules: [ENTER_READ],
          },
        },
        admin,
      );
      expect(tightened.status).toBe(200);
      expect(tightened.body.agents.weak).toMatchObject({
        require_write_approval: true,
        four_eyes: true,
        unlabelled_clicks: 'write',
        approval_timeout_seconds: 600,
      });
      // Adding a commit word, a small ignore region, a timeout under the default: still an admin's.
      const more = await put(
        {
          weak: {
            ...AGENT,
            commit_words: ['Freigeben', 'Buchen'],
            approval_timeout_seconds: 3600,
            ignore_regions: [{ x: 900, y: 0, width: 100, height: 100 }],
            // Less of the status bar redacted.
            redact_regions: [{ x: 0, y: 740, width: 512, height: 28 }],
            // Removing a rule that makes reads, adding one that only makes writes.
            screen_rules: [TAB_WRITE],
          },
        },
        admin,
      );
      expect(more.status).toBe(200);
      // A write exception added to a read rule, then the two reordered: a write wins wherever it is.
      for (const screen_rules of [
        [NAVIGATES],
        [NAVIGATES, SAVE_WRITES],
        [SAVE_WRITES, NAVIGATES],
      ]) {
        const reason = screen_rules.length === 1 ? 'the overview only navigates' : null;
        const by = reason ? weakener.token : admin;
        const agent = { ...AGENT, commit_words: ['Freigeben', 'Buchen'], screen_rules, reason };
        expect((await put({ weak: agent }, by)).status).toBe(200);
      }
      expect(await weakened()).toHaveLength(audited + 1);
    });
  });

  it('counts a new agent against the defaults', async () => {
    await put({}, admin);
    const at = await version();
    const result = await put(
      { fresh: { ...AGENT, four_eyes: false, reason: 'one-person team' } },
      admin,
    );
    expect(result.status).toBe(403);
    expect(result.body.message).toBe(
      'turning four_eyes off (agent fresh) needs the permission governance.weaken as well as computer_use.admin',
    );
    expect(await version()).toBe(at);
  });

  it('names every weakening of a change at once, and audits each in the same version', async () => {
    await put({ a: AGENT, b: AGENT }, admin);
    const change = {
      a: { ...AGENT, four_eyes: false, approval_timeout_seconds: 7200, reason: 'night shift' },
      b: { ...AGENT, four_eyes: false, ignore_regions: [SCREEN], reason: 'kiosk' },
    };
    const refused = await put(change, admin);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'turning four_eyes off (agent a, b); raising approval_timeout_seconds above the default 3600 (agent a); ' +
        'ignore_regions covering more than 2% of the screen (agent b) ' +
        'need the permission governance.weaken as well as computer_use.admin',
    );
    const audited = (await weakened()).length;
    const accepted = await put(change, weakener.token);
    expect(accepted.status).toBe(200);
    const events = (await weakened()).slice(audited);
    expect(
      events.map((e) => {
        const d = e.details as { agent: string; control: string; version: number };
        return [d.agent, d.control, d.version];
      }),
    ).toEqual([
      ['a', 'four_eyes', accepted.body.version],
      ['a', 'approval_timeout_seconds', accepted.body.version],
      ['b', 'four_eyes', accepted.body.version],
      ['b', 'ignore_regions', accepted.body.version],
    ]);
  });
});
