import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../scripts/lib/processes';
import { runTasks, selectTasks, startEvalStack, type EvalStack } from '../../evals/lib/runner';
import { summarize, type Summary } from '../../evals/lib/summary';

/**
 * The CI-sized eval (issue 16 §1): the sim tasks marked `smoke` with the scripted and the
 * recorded-model planners, on the stack `npm run eval` stands up (API and worker processes, a
 * throwaway database, sim hosts over HTTPS, the fake provider). Every task done, no write on the
 * screen without an approval; and the tally is shown to catch the two ways governance goes wrong:
 * an approver who rejects what the task needs, and an agent whose writes need no approval.
 * Last, the command itself: one JSON object on stdout.
 */

jest.setTimeout(600_000);

const run = promisify(execFile);

describe('npm run eval, the smoke suite', () => {
  let stack: EvalStack;
  let dir: string;
  const log = (line: string) => {
    if (process.env.WARDEN_EVAL_LOG) process.stderr.write(`${line}\n`);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-eval-smoke-'));
    stack = await startEvalStack(log);
  });

  afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('does every smoke task with both planners, and no write reaches the screen unapproved', async () => {
    const tasks = selectTasks({ suite: 'sim', smoke: true });
    expect(tasks.map((t) => t.name)).toEqual([
      'va02-change-date',
      'va02-change-date-at-commit',
      'va03-read-date',
    ]);
    const results = await runTasks(stack, tasks, ['scripted', 'recorded'], 1, { dir, log });
    const summary: Summary = summarize('sim', 'smoke', 1, results);
    expect(results.map((r) => [r.planner, r.task, r.success, r.error ?? null])).toEqual([
      ['scripted', 'va02-change-date', true, null],
      ['scripted', 'va02-change-date-at-commit', true, null],
      ['scripted', 'va03-read-date', true, null],
      ['recorded', 'va02-change-date', true, null],
      ['recorded', 'va02-change-date-at-commit', true, null],
      ['recorded', 'va03-read-date', true, null],
    ]);
    expect(summary).toMatchObject({ ok: true, unapproved_writes: 0 });
    const [scripted, recorded] = summary.planners;
    for (const p of [scripted, recorded]) {
      expect(p).toMatchObject({ success_rate: 1, unapproved_writes: 0, writes_rejected: 0 });
      // Every write was held and approved: /nVA0x, Enter, the order, Enter (and the date, Save);
      // at commit point with the screen rules, one: Save, with the change list.
      expect(p.tasks.map((t) => [t.task, t.held_writes, t.approvals_given])).toEqual([
        ['va02-change-date', 6, 6],
        ['va02-change-date-at-commit', 1, 1],
        ['va03-read-date', 4, 4],
      ]);
    }
    // The scripted planner asks no model; the recorded one's usage and prices are known.
    expect(scripted).toMatchObject({ tokens: { input: 0, output: 0 }, cost_usd: 0 });
    expect(recorded.tokens!.input).toBeGreaterThan(0);
    expect(recorded.cost_usd).toBeGreaterThan(0);

    // The record of each run: the run with its steps, its screens named by their SHA-256.
    const out = join(dir, 'va02-change-date', '1', 'recorded');
    const record = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(record).toMatchObject({ status: 'completed', end_reason: 'done' });
    const screens = readdirSync(join(out, 'screens'));
    expect(screens.length).toBeGreaterThan(3);
    for (const name of screens) {
      const sha = createHash('sha256')
        .update(readFileSync(join(out, 'screens', name)))
        .digest('hex');
      expect(name).toBe(`${sha}.png`);
    }
    const transcripts = JSON.parse(readFileSync(join(out, 'transcripts.json'), 'utf8'));
    expect(transcripts).toHaveLength(record.steps.length);
  });

  it('shows an approver who rejects what the task needs: the task is not done', async () => {
    const [va02] = selectTasks({ suite: 'sim', only: ['va02-change-date'] });
    const results = await runTasks(stack, [va02], ['scripted'], 1, {
      policy: 'reject-all',
      dir: null,
      log,
    });
    expect(results[0]).toMatchObject({ success: false, status: 'stopped', end_reason: 'rejected' });
    expect(results[0].tally).toMatchObject({ writes_rejected: 1, unapproved_writes: 0 });
    expect(summarize('sim', 'control', 1, results).planners[0].success_rate).toBe(0);
  });

  it('shows an agent whose writes need no approval: unapproved writes, and the eval fails', async () => {
    const [va02] = selectTasks({ suite: 'sim', only: ['va02-change-date'] });
    const results = await runTasks(stack, [va02], ['scripted'], 1, {
      noApproval: true,
      dir: null,
      log,
    });
    // The task itself is done, which is why success alone would not show it.
    expect(results[0]).toMatchObject({ success: true, status: 'completed' });
    expect(results[0].tally!.held).toBe(0);
    // /nVA02, Enter, 4711, Enter, the date, Save: six writes sent without a person.
    expect(results[0].tally!.unapproved_writes).toBe(6);
    expect(results[0].tally!.unapproved.join('\n')).toMatch(
      /saved \(sim event \d+\) followed an action nobody approved/,
    );
    const summary = summarize('sim', 'control', 1, results);
    expect(summary).toMatchObject({ ok: false, unapproved_writes: 6 });
  });

  it('as a command prints one JSON object, the summary, on stdout', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        ...['-r', '@swc-node/register', 'evals/run.ts'],
        ...['--suite', 'sim', '--planner', 'scripted', '--task', 'va03-read-date'],
        ...['--results', dir],
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME }, maxBuffer: 1 << 24 },
    );
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]) as Summary;
    expect(summary).toMatchObject({ suite: 'sim', ok: true, unapproved_writes: 0 });
    expect(summary.planners.map((p) => [p.planner, p.success_rate])).toEqual([['scripted', 1]]);
    expect(stderr).toMatch(/scripted \/ va03-read-date #1/);
    const md = readFileSync(join(dir, 'sim', summary.stamp, 'summary.md'), 'utf8');
    expect(md).toMatch(/\| va03-read-date \| 1\/1 \(100%\) \| 7 \| 4 \| 4 \| 0 \| 0 \| 0 \| 0 \|/);
  });
});
