import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of Warden's entry points from its TypeScript source, as a real process. */
export function runEntry(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawnEntry(entry, args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function spawnEntry(
  entry: string,
  args: string[],
  env: Record<string, string>,
): ChildProcess {
  return spawn(process.execPath, ['-r', '@swc-node/register', path.join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
