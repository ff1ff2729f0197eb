/**
 * Shared by the screen host's e2e tests: real HTTPS calls, log polling, the CLI. A throwaway X
 * display is test/support/xvfb.ts, as for Warden's tests, the evals and the benches.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest, IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { stopChild } from '../../test/support/children';
import { createCertificate, CreatedCertificate } from '../src';

export const TOKEN = randomBytes(24).toString('hex');

export function tempDir(prefix = 'screen-host-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function tempCertificate(): Promise<CreatedCertificate & { cert: Buffer }> {
  const created = await createCertificate(tempDir());
  return { ...created, cert: readFileSync(created.certPath) };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json(): any;
}

export interface CallOptions {
  method?: string;
  /** The bearer token; null sends no Authorization header. */
  token?: string | null;
  authorization?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** The CA to verify the host's certificate with (its own self-signed certificate). */
  ca?: Buffer;
}

/** One HTTP(S) request to a screen host; verifies TLS against `ca`. */
export function call(url: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const target = new URL(path, url);
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? TOKEN : options.token;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (token !== null) headers.authorization = `Bearer ${token}`;
  let payload: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
        headers,
        ca: options.ca,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body.toString('utf8')),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export function decodePng(png: Buffer): PNG {
  return PNG.sync.read(png);
}

export function readJsonLines(path: string): any[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

export function python(): string {
  return existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

export const REPO_ROOT = join(__dirname, '..', '..');
export const MAIN_TS = join(__dirname, '..', 'src', 'main.ts');

/** Runs the screen host's CLI from source (`node -r @swc-node/register src/main.ts …`). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['-r', '@swc-node/register', MAIN_TS, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCliToEnd(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = runCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface CliHost {
  url: string;
  child: ChildProcess;
  stderr(): string;
  close(): Promise<void>;
}

/** Starts a screen host through its CLI and waits for the line that says where it listens. */
export function startCliHost(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliHost> {
  const child = runCli(args, env);
  let stderr = '';
  child.stdout!.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the screen host did not start: ${stderr}`));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the screen host exited with ${code}: ${stderr}`));
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const match = /listening on (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ url: match[1], child, stderr: () => stderr, close: () => stopChild(child) });
      }
    });
  });
}
