/**
 * Warden as an MCP server (docs/mcp.md) through the real stack: API, worker, PostgreSQL, Redis and
 * the HTTPS sim screen host, with the official MCP SDK's client over real HTTP as the calling agent.
 * The agent is the planner of a run whose planner is `mcp-1-normal`: each of its tool calls is one
 * step through the engine; a write waits for a person, who decides through the approvals API, and
 * only then reaches the screen. Without a token, or as another tenant, nothing is seen.
 */
import { connectMcp, type McpSession, type ToolAnswer } from '../support/mcp-client';
import { saves } from '../support/approving';
import { isEnded, startStack, type Stack } from '../support/stack';

jest.setTimeout(240_000);

const MCP_PLANNER = 'mcp-1-normal';
/** Commit-point approval: the VA02 typing is staged, the Save is the one held write. */
const COMMIT = {
  planner: MCP_PLANNER,
  approve_at: 'commit',
  screen_rules: [
    { command_field: { transactions: ['VA02', 'VA03'] } },
    { title: '^Change Sales Order: Initial Screen$', keys: { Enter: 'read' } },
  ],
  reason: 'VA02 typing is stored only by Save; the approver decides there',
};

describe('the MCP endpoint, end to end', () => {
  let stack: Stack;
  let agent: McpSession;

  beforeAll(async () => {
    stack = await startStack();
    // Not public: the operator allows the mcp planner to acme, as any non-public planner.
    await stack.allowPlanner('mcp');
    agent = await connectMcp(stack.api.url, stack.tokens.operator);
  });

  afterAll(async () => {
    await agent?.close();
    await stack?.close();
  });

  beforeEach(async () => {
    await stack.sim.reset();
  });

  // A test that fails midway leaves no run holding the sim for the next.
  afterEach(async () => {
    const open = await stack.api.db.sql(
      `SELECT id FROM runs WHERE status NOT IN ('completed', 'failed', 'stopped')`,
    );
    for (const { id } of open as Array<{ id: string }>) {
      await stack.api.request('POST', `/api/computer-use/runs/${id}/cancel`, {
        token: stack.tokens.operator,
      });
    }
  });

  /** The centre of the outline element with this role and name on the answered screen. */
  const at = (screen: ToolAnswer, role: string, name: string) => {
    const found = (screen.fields.elements as any[]).find((e) => e.role === role && e.name === name);
    if (!found) throw new Error(`no ${role} "${name}" on step ${screen.fields.step}`);
    const { x, y, width, height } = found.rect;
    return { x: Math.round(x + width / 2), y: Math.round(y + height / 2) };
  };

  /** One action on the screen last answered; expects the next screen back. */
  const act = async (
    screen: ToolAnswer,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<ToolAnswer> => {
    const next = await agent.call(tool, {
      run_id: screen.fields.run_id,
      frame_id: screen.fields.frame_id,
      ...args,
    });
    expect(next.isError).toBe(false);
    return next;
  };

  const start = async (goal: string): Promise<ToolAnswer> => {
    const started = await agent.call('start_run', { agent: 'sap-orders', goal });
    expect(started).toMatchObject({ isError: false, fields: { agent: 'sap-orders' } });
    const screen = await agent.call('screenshot', { run_id: started.fields.run_id });
    expect(screen.fields).toMatchObject({ status: 'your_decision', step: 1 });
    return screen;
  };

  it('answers no token with 401 and the protected-resource metadata it points to', async () => {
    const bare = await fetch(`${stack.api.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(bare.status).toBe(401);
    const challenge = bare.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(
      /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource"/,
    );
    const wrong = await fetch(`${stack.api.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: 'Bearer wdn_not_a_token', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const url = /resource_metadata="([^"]+)"/.exec(challenge)![1];
    const metadata = await fetch(url);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      resource: `${new URL(url).origin}/mcp`,
      bearer_methods_supported: ['header'],
    });
    // A token without agents.operate is refused before any tool: insufficient_scope.
    const approver = await fetch(`${stack.api.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${stack.tokens.approver}`,
        'Content-Type': 'application/json',
      },
      body: '{}',
    });
    expect(approver.status).toBe(403);
    expect(approver.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('lists the runs tools and one tool per action of the vocabulary', async () => {
    const { tools } = await agent.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'approval_status',
        'cancel_run',
        'click',
        'double_click',
        'done',
        'fail',
        'get_run',
        'key',
        'list_agents',
        'screenshot',
        'scroll',
        'start_run',
        'type',
        'wait',
      ].sort(),
    );
    // A client of the 2025 revision is served the same tools, stateless.
    const legacy = await connectMcp(stack.api.url, stack.tokens.operator, 'legacy');
    try {
      expect((await legacy.client.listTools()).tools.map((t) => t.name).sort()).toEqual(names);
    } finally {
      await legacy.close();
    }
    const click = tools.find((t) => t.name === 'click')!;
    expect(click.inputSchema.required).toEqual(
      expect.arrayContaining(['run_id', 'frame_id', 'x', 'y']),
    );
  });

  it('is the planner of a run: reads sent, the Save held for a person, sent once approved', async () => {
    await stack.configure(COMMIT);
    let screen = await start('change order 4711: Req. Deliv. Date 30.04.2026');
    expect(screen.image).toEqual(expect.any(String));
    expect(Buffer.from(screen.image!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(screen.fields.frame_id).toMatch(/^[0-9a-f]{64}$/);
    const runId = screen.fields.run_id;
    const first = screen;

    screen = await act(screen, 'click', at(screen, 'textbox', 'Command field'));
    expect(screen.fields).toMatchObject({
      status: 'your_decision',
      step: 2,
      last_step: { n: 1, classification: 'read', outcome: 'sent' },
    });
    const beforeTyping = screen;
    screen = await act(screen, 'type', { text: '/nVA02' });
    expect(screen.fields.frame_id).not.toBe(beforeTyping.fields.frame_id);
    // A decision named on a frame the screen has left is not the step's: refused, nothing sent.
    const stale = await agent.call('key', {
      run_id: runId,
      frame_id: beforeTyping.fields.frame_id,
      key: 'Enter',
    });
    expect(stale.isError).toBe(true);
    expect(stale.fields).toMatchObject({ error: 'screen_changed' });
    expect(stale.fields.message).toContain(screen.fields.frame_id);
    expect((await stack.sim.events()).filter((e) => e.type === 'action')).toHaveLength(2);
    expect(first.fields.frame_id).toMatch(/^[0-9a-f]{64}$/);

    screen = await act(screen, 'key', { key: 'Enter' });
    screen = await act(screen, 'click', at(screen, 'textbox', 'Order'));
    screen = await act(screen, 'type', { text: '4711' });
    screen = await act(screen, 'key', { key: 'Enter' });
    screen = await act(screen, 'click', at(screen, 'textbox', 'Req. Deliv. Date'));
    screen = await act(screen, 'type', { text: '30.04.2026' });
    const held = await act(screen, 'click', at(screen, 'button', 'Save'));
    expect(held.fields).toMatchObject({
      status: 'held_for_a_person',
      run_status: 'awaiting_approval',
      approval_status: 'pending',
      approval_url: expect.stringMatching(/\/console\/approvals\/[0-9a-f-]{36}$/),
    });
    expect(held.fields.message).toContain('You cannot approve it');
    expect(await saves(stack.sim)).toEqual([]);

    // Asked again before anyone decided: still held, still nothing saved.
    const pending = await agent.call('approval_status', { run_id: runId });
    expect(pending.fields).toMatchObject({
      status: 'held_for_a_person',
      approval_status: 'pending',
    });
    // The agent's own subject cannot approve it (four-eyes): only another person can.
    const own = await stack.api.request(
      'POST',
      `/api/approvals/${held.fields.approval_id}/approve`,
      {
        token: stack.tokens.both,
        json: {},
      },
    );
    expect(own.status).toBe(403);
    expect(await saves(stack.sim)).toEqual([]);

    const approved = await stack.api.request(
      'POST',
      `/api/approvals/${held.fields.approval_id}/approve`,
      { token: stack.tokens.approver, json: { comment: 'right date' } },
    );
    expect(approved.status).toBe(200);
    const after = await agent.call('approval_status', { run_id: runId });
    expect(after.fields).toMatchObject({
      status: 'your_decision',
      last_step: { classification: 'write', outcome: 'sent_after_approval' },
    });
    expect(after.image).toEqual(expect.any(String));
    expect(after.fields.outline).toContain('has been saved');
    const saved = await saves(stack.sim);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ order: '4711', fields: { reqDelivDate: '30.04.2026' } });

    const ended = await act(after, 'done', { summary: 'saved' });
    expect(ended.fields).toMatchObject({
      status: 'ended',
      run_status: 'completed',
      end_reason: 'done',
    });
    const run = await stack.run(runId);
    expect(run.steps.map((s: any) => s.model?.provider)).toEqual(run.steps.map(() => 'remote'));
    // Approved once, sent once.
    expect(await saves(stack.sim)).toHaveLength(1);
  });

  it('a rejected write is never sent: the run ends with the reason', async () => {
    await stack.configure({ planner: MCP_PLANNER });
    let screen = await start('open VA02');
    screen = await act(screen, 'click', at(screen, 'textbox', 'Command field'));
    const held = await act(screen, 'type', { text: '/nVA02' });
    expect(held.fields).toMatchObject({ status: 'held_for_a_person' });
    // The runs tools say the same: who may decide, and the approval page.
    const state = await agent.call('get_run', { run_id: held.fields.run_id });
    expect(state.fields).toMatchObject({
      status: 'awaiting_approval',
      held: { approval_id: held.fields.approval_id, approval_url: held.fields.approval_url },
      steps: [
        { n: 1, classification: 'read', outcome: 'sent' },
        { n: 2, classification: 'write', outcome: 'held' },
      ],
    });
    expect(state.image).toEqual(expect.any(String));
    const rejected = await stack.api.request(
      'POST',
      `/api/approvals/${held.fields.approval_id}/reject`,
      { token: stack.tokens.approver, json: { comment: 'not today' } },
    );
    expect(rejected.status).toBe(200);
    const after = await agent.call('approval_status', { run_id: held.fields.run_id });
    expect(after.fields).toMatchObject({
      status: 'ended',
      run_status: 'stopped',
      end_reason: 'rejected',
    });
    const typed = (await stack.sim.events()).filter(
      (e) => e.type === 'action' && e.action.action === 'type',
    );
    expect(typed).toEqual([]);
  });

  it('sends nothing when the kill switch is engaged while the agent decides', async () => {
    await stack.configure({ planner: MCP_PLANNER });
    const screen = await start('look at the command field');
    const kill = (engaged: boolean, reason: string) =>
      stack.api.request('PUT', '/api/admin/agents/sap-orders/kill-switch', {
        token: stack.tokens.admin,
        json: { engaged, reason },
      });
    try {
      expect((await kill(true, 'incident 7')).status).toBe(200);
      const answer = await act(screen, 'click', at(screen, 'textbox', 'Command field'));
      expect(answer.fields).toMatchObject({
        status: 'ended',
        run_status: 'stopped',
        end_reason: 'killed',
        summary: 'kill switch engaged: incident 7',
      });
      expect((await stack.sim.events()).filter((e) => e.type === 'action')).toEqual([]);
    } finally {
      await kill(false, 'ok');
    }
  });

  it('shows another tenant nothing, and answers bad input with a JSON-RPC error', async () => {
    await stack.configure({ planner: MCP_PLANNER });
    const screen = await start('look only');
    const runId = screen.fields.run_id;
    const globex = await connectMcp(stack.api.url, stack.tokens.other);
    try {
      for (const [tool, args] of [
        ['get_run', { run_id: runId }],
        ['screenshot', { run_id: runId }],
        ['cancel_run', { run_id: runId }],
        ['click', { run_id: runId, frame_id: screen.fields.frame_id, x: 1, y: 1 }],
      ] as const) {
        const answer = await globex.call(tool, args);
        expect(answer).toMatchObject({ isError: true, fields: { error: 'not_found' } });
      }
      expect((await globex.call('list_agents', {})).fields.agents).toEqual([]);
    } finally {
      await globex.close();
    }
    expect((await stack.run(runId)).status).toBe('running');

    // Arguments outside a tool's schema: an error naming the field, nothing sent.
    await expect(
      agent.client.callTool({
        name: 'click',
        arguments: { run_id: runId, frame_id: screen.fields.frame_id, x: 'left' },
      }),
    ).resolves.toMatchObject({ isError: true });
    // A body that is no JSON: a JSON-RPC parse error, never a 5xx.
    const garbage = await fetch(`${stack.api.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${stack.tokens.operator}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(garbage.status).toBeLessThan(500);
    expect(await garbage.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const cancelled = await agent.call('cancel_run', { run_id: runId });
    expect(cancelled.fields).toMatchObject({ status: 'stopped', end_reason: 'cancelled' });
    expect(isEnded(await stack.run(runId))).toBe(true);
  });
});
