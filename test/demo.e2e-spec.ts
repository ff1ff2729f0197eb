import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { TEST_PG_ADMIN_URL, TEST_REDIS_URL, testRunPrefix } from './support/env';

const ROOT = path.resolve(__dirname, '..');

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
describe('npm run demo', () => {
  it('shows a governed run to its end, one save of 4711, a verified trail, and leaves nothing running', async () => {
    const name = `${testRunPrefix()}_demo`;
    const child = spawn('bash', ['scripts/demo.sh'], {
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
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const pgid = child.pid!;

    expect({ code, output }).toMatchObject({ code: 0 });
    expect(output).toMatch(
      /✓ run completed \(done\) after \d+ steps, [1-9]\d* held writes approved/,
    );
    expect(output).toContain('olga tries to approve it → 403');
    expect(output).toContain('four-eyes: olga started this run');
    expect(output).toContain('SHA-256 matches');
    expect(output).toContain('✓ exactly one save of order 4711');
    // The same change approved at the commit: one decision, with the change list (issue 14).
    expect(output).toMatch(/it commits\s+2 changes:\n\s+Order: “” → “4711”/);
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
