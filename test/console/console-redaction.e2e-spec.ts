import { randomBytes } from 'node:crypto';
import { ConsoleBrowser, ImageElement, startBrowser } from '../support/browser';
import {
  chatAction,
  chatCompletion,
  fakeChatPlanner,
  type FakeProvider,
  startFakeProvider,
} from '../support/fake-provider';
import { isEnded, startStack, type Stack } from '../support/stack';

/**
 * The approver is told what `redact_regions` hide from them: a held write whose target lies under
 * a region says so in its why and its record (`redaction`), and the approval page, in Debian's
 * chromium against the real API, worker, PostgreSQL, Redis and the HTTPS sim screen host, says how
 * much of the screen is black and that the write acts where the approver cannot see.
 */

jest.setTimeout(120_000);

type Box = { x: number; y: number; width: number; height: number };

describe('the approval of a write under redact_regions', () => {
  let stack: Stack;
  let fake: FakeProvider;
  let browser: ConsoleBrowser;
  const keyEnv = `WARDEN_TEST_MODEL_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;

  beforeAll(async () => {
    process.env[keyEnv] = `sk-test-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack();
    await stack.grant(keyEnv, fake.url);
    browser = await startBrowser(stack.api.url);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  async function hostRect(id: string): Promise<Box> {
    const outline = JSON.parse((await stack.sim.call('GET', '/elements')).body.toString());
    return outline.find((e: { id: string }) => e.id === id).rect;
  }

  /** A run whose model types a transaction code into the command field, held for a person. */
  async function heldTyping(regions: Box[]) {
    await stack.sim.reset();
    fake.reset();
    await stack.configure({
      planner: fakeChatPlanner(fake, keyEnv),
      redact_regions: regions,
    });
    fake.script([chatCompletion(chatAction({ action: 'type', text: '/nVA03' }))]);
    const run = await stack.start('open VA03');
    const held = await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval' || isEnded(r));
    expect(held.status).toBe('awaiting_approval');
    return { run, approval: held.pending_approval };
  }

  async function reject(runId: string, approvalId: string) {
    const rejected = await stack.api.request('POST', `/api/approvals/${approvalId}/reject`, {
      token: stack.tokens.approver,
      json: {},
    });
    expect(rejected.status).toBe(200);
    await stack.waitFor(runId, isEnded);
  }

  it('says the write acts where the approver sees black, and how much of the screen is', async () => {
    // The command field, 196 × 22 of 1280 × 800: 0.42%, shown rounded up.
    const commandField = await hostRect('wnd[0]/tbar[0]/okcd');
    const { run, approval } = await heldTyping([commandField]);
    expect(approval.why).toBe(
      "typing into a field is a write; it lands under this agent's redact_regions: the screen shown to you is black where it acts",
    );
    expect(approval.redaction).toEqual({
      percent: 0.5,
      regions: [commandField],
      target: true,
      changes: [],
    });

    const bob = await browser.tab();
    await browser.signIn(bob, stack.tokens.approver, 'bob');
    await bob.goto(`${stack.api.url}/console/approvals/${approval.id}`);
    await bob
      .locator('.held-screen img.screen-img[src]')
      .evaluate((el: ImageElement) => el.decode());
    const notice = bob.locator('.redaction-notice');
    await expect(notice.getAttribute('class')).resolves.toBe('redaction-notice hides-write');
    await expect(notice.locator('h2').textContent()).resolves.toBe(
      'You cannot see where this write acts',
    );
    await expect(notice.locator('p').textContent()).resolves.toContain(
      '0.5% of this screen is blacked out',
    );
    await expect(bob.locator('p.why').textContent()).resolves.toContain('redact_regions');
    await browser.shot(bob, 'approval-redacted-target');
    await reject(run.id, approval.id);

    // A region away from what the write acts on: the share, and nothing more in the why.
    const customer = { x: 310, y: 200, width: 262, height: 22 };
    const away = await heldTyping([customer]);
    expect(away.approval.why).toBe('typing into a field is a write');
    expect(away.approval.redaction).toMatchObject({ percent: 0.6, target: false, changes: [] });
    await bob.goto(`${stack.api.url}/console/approvals/${away.approval.id}`);
    await expect(bob.locator('.redaction-notice h2').textContent()).resolves.toBe(
      '0.6% of this screen is hidden',
    );
    await expect(bob.locator('.redaction-notice').getAttribute('class')).resolves.toBe(
      'redaction-notice',
    );
    await reject(away.run.id, away.approval.id);

    // An agent that redacts nothing: no record, no notice.
    const plain = await heldTyping([]);
    expect(plain.approval.redaction).toBeNull();
    await bob.goto(`${stack.api.url}/console/approvals/${plain.approval.id}`);
    await bob.locator('p.why').waitFor();
    await expect(bob.locator('.redaction-notice').count()).resolves.toBe(0);
    await reject(plain.run.id, plain.approval.id);
    expect(browser.problems).toEqual([]);
  });
});
