/**
 * The messages between the screen host and its long-lived PowerShell helper: one JSON object per
 * line each way, matched by `id`. Kept apart from the process so that it can be tested anywhere.
 */
import type { Readable, Writable } from 'node:stream';
import type { CheckedAction } from '../../actions';
import { toVirtualKeys } from '../../keys';

/** One notch of a mouse wheel in Windows' units. */
export const WHEEL_DELTA = 120;

export type WindowsOp =
  | { op: 'size' }
  | { op: 'screenshot' }
  | { op: 'click'; x: number; y: number; count: 1 | 2 }
  | { op: 'scroll'; x: number; y: number; dx: number; dy: number }
  | { op: 'key'; vks: number[]; extended: boolean[] }
  | { op: 'type'; text: string }
  /** SAP GUI Scripting (sapgui/sapgui-script.ts): a probe, or the active session's snapshot. */
  | { op: 'sapgui'; read: 'probe' | 'tree' | 'walk' }
  /** Answers nothing but ok: the helper has started. */
  | { op: 'ping' };

export type WindowsRequest = WindowsOp & { id: number };

export type WindowsResponse =
  | { id: number; ok: true; width?: number; height?: number; png?: string; sapgui?: object }
  | { id: number | null; ok: false; error: string };

/** The helper's operation for one validated action. */
export function opForAction(action: CheckedAction): WindowsOp {
  switch (action.action) {
    case 'click':
      return { op: 'click', x: action.x, y: action.y, count: 1 };
    case 'double_click':
      return { op: 'click', x: action.x, y: action.y, count: 2 };
    case 'scroll': {
      const notches = action.amount * WHEEL_DELTA;
      const dy = action.direction === 'up' ? notches : action.direction === 'down' ? -notches : 0;
      const dx =
        action.direction === 'right' ? notches : action.direction === 'left' ? -notches : 0;
      return { op: 'scroll', x: action.x, y: action.y, dx, dy };
    }
    case 'key': {
      const keys = toVirtualKeys(action.parsed);
      return { op: 'key', vks: keys.map((k) => k.vk), extended: keys.map((k) => k.extended) };
    }
    case 'type':
      return { op: 'type', text: action.text };
  }
}

export function encodeRequest(request: WindowsRequest): string {
  // JSON.stringify escapes U+2028/U+2029 and control characters, so one request is one line.
  return `${JSON.stringify(request)}\n`;
}

const MAX_DIMENSION = 32_768;

function isDimension(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_DIMENSION
  );
}

/** Parses and checks one line from the helper; throws on anything that is not a valid answer. */
export function parseResponse(line: string): WindowsResponse {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(
      `the PowerShell helper answered something that is not JSON: ${line.slice(0, 80)}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('the PowerShell helper answered something that is not a JSON object');
  }
  const r = value as Record<string, unknown>;
  if (r.ok === false) {
    const id = typeof r.id === 'number' && Number.isInteger(r.id) ? r.id : null;
    return {
      id,
      ok: false,
      error: typeof r.error === 'string' ? r.error.slice(0, 500) : 'unknown error',
    };
  }
  if (r.ok !== true || typeof r.id !== 'number' || !Number.isInteger(r.id)) {
    throw new Error('the PowerShell helper answered without a valid id and ok');
  }
  const response: WindowsResponse = { id: r.id, ok: true };
  if (r.width !== undefined || r.height !== undefined) {
    if (!isDimension(r.width) || !isDimension(r.height))
      throw new Error('the PowerShell helper sent an invalid screen size');
    response.width = r.width;
    response.height = r.height;
  }
  if (r.png !== undefined) {
    if (typeof r.png !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(r.png)) {
      throw new Error('the PowerShell helper sent a screenshot that is not base64');
    }
    response.png = r.png;
  }
  if (r.sapgui !== undefined) {
    // Checked where it is used (sapgui/sapgui-snapshot.ts): here only that it is an object.
    if (typeof r.sapgui !== 'object' || r.sapgui === null || Array.isArray(r.sapgui)) {
      throw new Error('the PowerShell helper sent a SAP GUI answer that is not an object');
    }
    response.sapgui = r.sapgui;
  }
  return response;
}

interface Waiting {
  resolve: (response: WindowsResponse & { ok: true }) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** Sends requests to the helper and matches its answers by id. */
export class WindowsBridge {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private buffer = '';
  private broken: Error | null = null;

  constructor(
    private readonly input: Writable,
    output: Readable,
    private readonly timeoutMs = 15_000,
  ) {
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => this.receive(chunk));
    output.on('end', () => this.fail(new Error('the PowerShell helper closed its output')));
  }

  /** Sends one request; `timeoutMs` for this one (the first one waits for the helper to start). */
  request(op: WindowsOp, timeoutMs = this.timeoutMs): Promise<WindowsResponse & { ok: true }> {
    if (this.broken) return Promise.reject(this.broken);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`the PowerShell helper did not answer ${op.op} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, { resolve, reject, timer });
      this.input.write(encodeRequest({ ...op, id }));
    });
  }

  fail(err: Error): void {
    this.broken = err;
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(err);
      this.waiting.delete(id);
    }
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (line === '') continue;
      let response: WindowsResponse;
      try {
        response = parseResponse(line);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      if (response.id === null) {
        this.fail(
          new Error(`the PowerShell helper failed: ${(response as { error: string }).error}`),
        );
        return;
      }
      const waiting = this.waiting.get(response.id);
      if (!waiting) continue;
      this.waiting.delete(response.id);
      clearTimeout(waiting.timer);
      if (response.ok) waiting.resolve(response);
      else waiting.reject(new Error(response.error));
    }
  }
}
