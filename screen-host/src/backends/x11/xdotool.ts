/**
 * xdotool, spoken to the way it is fast and exact (see shared notes on X11 input):
 * - clicks, keys and scrolls go to one long-lived `xdotool -` process that reads commands line by
 *   line; after each command it is asked `getdisplaygeometry`, whose answer line says "done". A
 *   spawn costs 3 to 16 ms; a line on a running process well under one. (Not `getmouselocation`:
 *   it looks up the window under the pointer, and when the click just closed that window (Yes on
 *   a dialog) Xlib's BadWindow error ends xdotool, and a click that landed read as failed.)
 * - typing spawns `xdotool type --delay 5 --file -` with the text on stdin: exact for non-ASCII
 *   (a delay of 0 loses characters), and no argument parsing can misread the text.
 */
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const TYPE_DELAY_MS = 5;
const COMMAND_TIMEOUT_MS = 10_000;

interface Pending {
  resolve: () => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class Xdotool {
  private process: ChildProcessWithoutNullStreams | null = null;
  private pending: Pending[] = [];
  private buffer = '';
  private stderr = '';
  private closed = false;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** Runs one script line (a chain of xdotool commands) and resolves when xdotool has done it. */
  run(line: string): Promise<void> {
    if (/[\r\n]/.test(line)) return Promise.reject(new Error('an xdotool command is one line'));
    const child = this.ensure();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new Error('xdotool did not answer within 10 s'));
      }, COMMAND_TIMEOUT_MS);
      this.pending.push({ resolve, reject, timer });
      child.stdin.write(`${line}\ngetdisplaygeometry\n`);
    });
  }

  /** Types `text` exactly, through a process of its own. */
  type(text: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const child = spawn('xdotool', ['type', '--delay', String(TYPE_DELAY_MS), '--file', '-'], {
        env: this.env,
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let stderr = '';
      // Generous: 5 ms a character plus xdotool's own overhead; a hung xdotool must not hold the queue.
      const timer = setTimeout(
        () => child.kill('SIGKILL'),
        COMMAND_TIMEOUT_MS + [...text].length * 50,
      );
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', (err) => reject(new Error(`xdotool could not be started: ${err.message}`)));
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else if (signal === 'SIGKILL') reject(new Error('xdotool type did not finish in time'));
        else reject(new Error(`xdotool type exited with ${code}: ${stderr.trim().slice(0, 200)}`));
      });
      child.stdin.end(text, 'utf8');
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.process;
    if (!child) return;
    await new Promise<void>((resolve) => {
      child.once('close', () => resolve());
      child.stdin.end();
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    });
  }

  private ensure(): ChildProcessWithoutNullStreams {
    if (this.closed) throw new Error('the x11 backend is closed');
    if (this.process) return this.process;
    // xdotool's stdout is a pipe, so its answers would sit in a stdio buffer; stdbuf makes it line-buffered.
    const [command, args] = existsSync('/usr/bin/stdbuf')
      ? ['/usr/bin/stdbuf', ['-oL', 'xdotool', '-']]
      : ['xdotool', ['-']];
    const child = spawn(command, args, { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.process = child;
    this.buffer = '';
    this.stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      this.buffer += d.toString();
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        this.buffer = this.buffer.slice(newline + 1);
        const done = this.pending.shift();
        if (done) {
          clearTimeout(done.timer);
          done.resolve();
        }
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-500);
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (err) =>
      this.fail(new Error(`xdotool could not be started: ${err.message}`)),
    );
    child.on('close', (code) => {
      if (this.process === child) this.process = null;
      this.fail(new Error(`xdotool exited with ${code}: ${this.stderr.trim().slice(0, 200)}`));
    });
    return child;
  }

  /** Fails every command in flight and drops the process; the next command starts a new one. */
  private fail(err: Error): void {
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    if (this.process) {
      const child = this.process;
      this.process = null;
      child.kill('SIGKILL');
    }
  }
}
