import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { TEST_PG_ADMIN_URL, TEST_REDIS_URL, testRunPrefix } from '../support/env';
import { until } from '../support/until';

const ROOT = path.resolve(__dirname, '..', '..');

/** Pids of the live processes in a process group (from /proc: field 5 of stat is the pgid). */
function processGroup(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** How a TCP connection to the URL's port ends: `ECONNREFUSED` once nothing listens there. */
function connectTo(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/**
 * `npm run demo` end to end, as a process: scripts/demo.sh with its own database and queue prefix
 * (under this test run's prefix, so the global teardown removes them) and a free port, so it
 * cannot meet a user's demo or another test. The entry points run from their sources
 * (WARDEN_DEMO_FROM_SOURCE=1), as every e2e test runs them, so the test neither needs nor
 * rebuilds dist/; the demo with dist/ differs only in the file each process starts.
 */
/** scripts/demo.sh with this test run's own database, queue prefix and sources, in its own group. */
function startDemo(name: string, args: string[] = []) {
  const child = spawn('bash', ['scripts/demo.sh', ...args], {
    cwd: ROOT,
    // Its own process group: everything the demo starts is in it unless it escapes on purpose.
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      WARDEN_DEMO_DB: name,
      WARDEN_DEMO_QUEUE_PREFIX: name,
      WARDEN_DEMO_PG_URL: TEST_PG_ADMIN_URL,
      WARDEN_DEMO_REDIS_URL: TEST_REDIS_URL,
      WARDEN_DEMO_FROM_SOURCE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, output: () => output, closed };
}

describe('npm run demo', () => {
  it('with --keep leaves the console running with a held write, signs people in, and stops on Ctrl+C', async () => {
    const demo = startDemo(`${testRunPrefix()}_demo_keep`, ['--keep']);
    // A failed expectation still stops everything the demo started.
    let interrupted = false;
    try {
      const deadline = Date.now() + 200_000;
      while (!demo.output().includes('Ctrl+C stops everything') && Date.now() < deadline) {
        const ended = await Promise.race([demo.closed, new Promise((r) => setTimeout(r, 200))]);
        if (ended !== undefined) break;
      }
      const output = demo.output();
      expect(output).toContain('Ctrl+C stops everything the demo started');
      expect(output).not.toContain('✗');
      const base = /open (http:\/\/\S+)\/console and sign in/.exec(output)![1];
      const token = (who: string) => new RegExp(`as ${who}[^:]*:\\s+(wdn_\\S+)`).exec(output)![1];
      const approvalPage = /the approval: (\S+)/.exec(output)![1];
      // The console answers, and the printed approver's token signs in as bob and sees the write.
      expect((await fetch(`${base}/console`)).status).toBe(200);
      expect((await fetch(approvalPage)).status).toBe(200);
      const me = await fetch(`${base}/api/me`, {
        headers: { authorization: `Bearer ${token('bob')}` },
      });
      expect(await me.json()).toMatchObject({ subject: 'bob', tenant: 'acme' });
      const pending = await fetch(`${base}/api/approvals?status=pending`, {
        headers: { authorization: `Bearer ${token('bob')}` },
      });
      const items = ((await pending.json()) as { items: Array<{ id: string }> }).items;
      expect(items.map((a) => a.id)).toEqual([approvalPage.split('/').pop()]);
      expect(token('olga')).not.toBe(token('bob'));
      // The admin's token too, and where the Admin page is.
      const admin = await fetch(`${base}/api/me`, {
        headers: { authorization: `Bearer ${token('ada')}` },
      });
      expect(await admin.json()).toMatchObject({ subject: 'ada' });
      expect(output).toContain(`${base}/console/admin`);

      // The kept run starts from the sim's first screen, so its Save changes the date: before is
      // not after, and approving and resuming it ends the run done.
      const call = (method: string, url: string, who: string) =>
        fetch(`${base}${url}`, {
          method,
          headers: { authorization: `Bearer ${token(who)}`, 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
      const held = (await (await call('GET', `/api/approvals/${items[0].id}`, 'bob')).json()) as {
        run_id: string;
        changes: Array<{ field: string; before: string | null; read_back: string | null }>;
      };
      const date = held.changes.find((c) => c.field === 'Req. Deliv. Date')!;
      expect(date.read_back).toBe('30.04.2026');
      expect(date.before).toMatch(/^\d\d\.\d\d\.\d{4}$/);
      expect(date.before).not.toBe(date.read_back);
      expect((await call('POST', `/api/approvals/${items[0].id}/approve`, 'bob')).status).toBe(200);
      expect(
        (await call('POST', `/api/computer-use/runs/${held.run_id}/resume`, 'olga')).status,
      ).toBe(200);
      const run = await until(
        'the kept run settled',
        async () => {
          const seen = (await (
            await call('GET', `/api/computer-use/runs/${held.run_id}`, 'olga')
          ).json()) as { status: string; end_reason: string | null };
          return !['queued', 'running'].includes(seen.status) && seen;
        },
        60_000,
        200,
      );
      expect(run).toMatchObject({ status: 'completed', end_reason: 'done' });

      process.kill(-demo.child.pid!, 'SIGINT');
      interrupted = true;
      expect(await demo.closed).toBe(0);
      expect(demo.output()).toContain('stopped; nothing the demo started is running.');
      expect(processGroup(demo.child.pid!)).toEqual([]);
      expect(await connectTo(base)).toBe('ECONNREFUSED');
    } finally {
      if (!interrupted) {
        process.kill(-demo.child.pid!, 'SIGINT');
        await demo.closed;
      }
    }
  }, 300_000);

  it('refuses an argument it does not know, before it installs or starts anything', async () => {
    const demo = startDemo(`${testRunPrefix()}_demo_bad`, ['--nope']);
    expect(await demo.closed).toBe(2);
    expect(demo.output()).toBe('demo: unknown argument --nope\nusage: npm run demo [-- --keep]\n');
  });

  it('shows a governed run to its end, one save of 4711, a verified trail, and leaves nothing running', async () => {
    const name = `${testRunPrefix()}_demo`;
    const demo = startDemo(name);
    const code = await demo.closed;
    const output = demo.output();
    const pgid = demo.child.pid!;

    expect({ code, output }).toMatchObject({ code: 0 });
    expect(output).toMatch(
      /✓ run completed \(done\) after \d+ steps, [1-9]\d* held writes approved/,
    );
    expect(output).toContain('olga tries to approve it → 403');
    expect(output).toContain('four-eyes: olga started this run');
    expect(output).toContain('SHA-256 matches');
    expect(output).toContain('✓ exactly one save of order 4711');
    // The same change approved at the commit: one decision, with the change list.
    expect(output).toMatch(
      /it stores\s+1 change:\n\s+Order: opened with “4711” \(navigation, not a stored change\)\n\s+Req\. Deliv\. Date: “\d\d\.\d\d\.\d{4}” → “30\.04\.2026”\n/,
    );
    expect(output).toMatch(/Req\. Deliv\. Date: “\d\d\.\d\d\.\d{4}” → “30\.04\.2026”\n/);
    expect(output).toMatch(/approvals a person gave\s+[2-9]\s+1\n/);
    expect(output).toContain('✓ 1 save of order 4711 on the sim');
    expect(output).toMatch(/✓ GET \/api\/audit\/verify: ok, \d+ events/);
    expect(output).toContain(`the database ${name} stays for a look`);
    expect(output).not.toContain('✗');

    // Nothing it started is running: not in its process group, and its API and host do not answer.
    expect(processGroup(pgid)).toEqual([]);
    const api = /API on (http:\/\/\S+)/.exec(output)![1];
    const host = /screen host \(sim backend\) on (https:\/\/\S+)/.exec(output)![1];
    expect(await connectTo(api)).toBe('ECONNREFUSED');
    expect(await connectTo(host)).toBe('ECONNREFUSED');
  }, 240_000);
});
