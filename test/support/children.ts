import type { ChildProcess } from 'node:child_process';

/** Ends one child process we started, by its handle (SIGTERM, then SIGKILL), and waits for it. */
export function stopChild(child: ChildProcess | null | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

/** Ends the process group `child` leads (SIGTERM, then SIGKILL). */
export function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  const pid = child.pid;
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      resolve();
    }
    setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, 3000).unref();
  });
}
