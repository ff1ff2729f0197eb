/**
 * Exact typing of any character on X11.
 *
 * xdotool types a character the keyboard map lacks (ü on a US map, €) by mapping it to a spare
 * keycode, pressing that, and mapping the keycode back to nothing straight away. An application
 * looks the keysym up when it processes the key event, and a busy one does that after the map was
 * restored: the character is lost (seen here under load: "Mller €5 ß"). So before xdotool types,
 * the host maps every character the text needs onto spare keycodes itself and leaves them mapped;
 * xdotool then finds them in the map and never remaps anything while the application catches up.
 *
 * The map is changed with two core X11 requests (GetKeyboardMapping, ChangeKeyboardMapping) over
 * a small client of the X protocol written here, so that no extra tool or native module is needed.
 */
import { readFileSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';

export interface KeyboardMap {
  minKeycode: number;
  maxKeycode: number;
  keysymsPerKeycode: number;
  /** keysyms[(keycode - minKeycode) * keysymsPerKeycode + level] */
  keysyms: number[];
}

/** The keysym for a character: Latin-1 keysyms equal the code point; others are Unicode keysyms. */
export function keysymForChar(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return 0x01000000 + cp;
}

function keysymAt(map: KeyboardMap, keycode: number, level: number): number {
  return map.keysyms[(keycode - map.minKeycode) * map.keysymsPerKeycode + level] ?? 0;
}

/** Keycodes with no keysym at all, in ascending order. */
export function spareKeycodes(map: KeyboardMap): number[] {
  const spare: number[] = [];
  for (let keycode = map.minKeycode; keycode <= map.maxKeycode; keycode++) {
    let empty = true;
    for (let level = 0; level < map.keysymsPerKeycode; level++) {
      if (keysymAt(map, keycode, level) !== 0) empty = false;
    }
    if (empty) spare.push(keycode);
  }
  return spare;
}

/** Whether the map types `keysym` without AltGr or a remap: on the first or the shifted level. */
function typeable(map: KeyboardMap, keysym: number): boolean {
  for (let keycode = map.minKeycode; keycode <= map.maxKeycode; keycode++) {
    if (keysymAt(map, keycode, 0) === keysym || keysymAt(map, keycode, 1) === keysym) return true;
  }
  return false;
}

export interface KeymapChange {
  keycode: number;
  keysym: number;
}

/**
 * Which keysyms to put on which keycodes so that every character of `text` is in the map.
 * `ours` holds the keycodes this host mapped earlier (keycode → keysym), least recently used
 * first; free spare keycodes are taken before those are reused, and the last spare keycode stays
 * free for xdotool's own scratch use.
 */
export function planKeymap(
  map: KeyboardMap,
  text: string,
  ours: ReadonlyMap<number, number>,
): KeymapChange[] {
  const textKeysyms = new Set<number>();
  const needed: number[] = [];
  for (const ch of text) {
    if (ch === '\n' || ch === '\t') continue;
    const keysym = keysymForChar(ch);
    textKeysyms.add(keysym);
    if (!typeable(map, keysym) && !needed.includes(keysym)) needed.push(keysym);
  }
  if (needed.length === 0) return [];
  const free = spareKeycodes(map).slice(0, -1);
  // Ours still holding what we put there, and not needed by this text.
  const reusable = [...ours]
    .filter(([keycode, keysym]) => keysymAt(map, keycode, 0) === keysym && !textKeysyms.has(keysym))
    .map(([keycode]) => keycode);
  const candidates = [...free, ...reusable];
  return needed
    .slice(0, candidates.length)
    .map((keysym, i) => ({ keycode: candidates[i], keysym }));
}

/** Keycodes of `ours` that hold a keysym of `text`: to be marked as recently used. */
export function usedBy(
  map: KeyboardMap,
  text: string,
  ours: ReadonlyMap<number, number>,
): number[] {
  const keysyms = new Set([...text].map(keysymForChar));
  return [...ours]
    .filter(([keycode, keysym]) => keysymAt(map, keycode, 0) === keysym && keysyms.has(keysym))
    .map(([k]) => k);
}

export interface DisplayAddress {
  /** A Unix socket path or a TCP host and port. */
  path?: string;
  host?: string;
  port?: number;
  number: string;
}

/** `:0`, `:1.0`, `unix:2` → the local socket; `host:10.0` → TCP port 6010. */
export function parseDisplay(display: string): DisplayAddress {
  const match = /^([^:]*):(\d+)(?:\.\d+)?$/.exec(display);
  if (!match) throw new Error(`cannot read the display name "${display}"`);
  const [, host, number] = match;
  if (host === '' || host === 'unix') return { path: `/tmp/.X11-unix/X${number}`, number };
  return { host, port: 6000 + Number(number), number };
}

export interface XauthEntry {
  family: number;
  address: string;
  number: string;
  name: string;
  data: Buffer;
}

/** Reads an Xauthority file (big-endian length-prefixed fields). */
export function parseXauthority(file: Buffer): XauthEntry[] {
  const entries: XauthEntry[] = [];
  let offset = 0;
  const field = (): Buffer => {
    const length = file.readUInt16BE(offset);
    const value = file.subarray(offset + 2, offset + 2 + length);
    if (value.length !== length) throw new Error('truncated Xauthority file');
    offset += 2 + length;
    return value;
  };
  while (offset + 2 <= file.length) {
    const family = file.readUInt16BE(offset);
    offset += 2;
    const address = field().toString('latin1');
    const number = field().toString('latin1');
    const name = field().toString('latin1');
    const data = field();
    entries.push({ family, address, number, name, data });
  }
  return entries;
}

const FAMILY_LOCAL = 256;
const FAMILY_WILD = 65535;

/** The MIT-MAGIC-COOKIE-1 for a local display, if the user's Xauthority has one. */
export function cookieFor(entries: XauthEntry[], number: string, host = hostname()): Buffer | null {
  const entry = entries.find(
    (e) =>
      e.name === 'MIT-MAGIC-COOKIE-1' &&
      (e.number === number || e.number === '') &&
      (e.family === FAMILY_WILD || (e.family === FAMILY_LOCAL && e.address === host)),
  );
  return entry ? entry.data : null;
}

function pad4(n: number): number {
  return (4 - (n % 4)) % 4;
}

/** A connection to the X server that speaks just the requests the keyboard map needs. */
export class X11KeymapClient {
  private buffer = Buffer.alloc(0);
  private waiting: { resolve: (reply: Buffer) => void; reject: (err: Error) => void } | null = null;
  private failure: Error | null = null;

  private constructor(
    private readonly socket: Socket,
    readonly minKeycode: number,
    readonly maxKeycode: number,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('the X server closed the connection')));
  }

  static async connect(
    display: string,
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<X11KeymapClient> {
    const address = parseDisplay(display);
    let cookie: Buffer | null;
    try {
      const file = env.XAUTHORITY || join(env.HOME || homedir(), '.Xauthority');
      cookie = cookieFor(parseXauthority(readFileSync(file)), address.number);
    } catch {
      cookie = null; // no Xauthority: a server without access control (Xvfb by default)
    }
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = address.path ? connect(address.path) : connect(address.port!, address.host);
      s.once('connect', () => resolve(s));
      s.once('error', reject);
    });
    const name = cookie ? Buffer.from('MIT-MAGIC-COOKIE-1', 'latin1') : Buffer.alloc(0);
    const data = cookie ?? Buffer.alloc(0);
    const setup = Buffer.alloc(
      12 + name.length + pad4(name.length) + data.length + pad4(data.length),
    );
    setup[0] = 0x6c; // 'l': little-endian
    setup.writeUInt16LE(11, 2);
    setup.writeUInt16LE(0, 4);
    setup.writeUInt16LE(name.length, 6);
    setup.writeUInt16LE(data.length, 8);
    name.copy(setup, 12);
    data.copy(setup, 12 + name.length + pad4(name.length));
    const reply = await new Promise<Buffer>((resolve, reject) => {
      let got = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        got = Buffer.concat([got, chunk]);
        if (got.length < 8) return;
        const total = 8 + got.readUInt16LE(6) * 4;
        if (got.length < total) return;
        socket.off('data', onData);
        resolve(got);
      };
      socket.on('data', onData);
      socket.once('error', reject);
      socket.write(setup);
    });
    if (reply[0] !== 1) {
      socket.destroy();
      const reason = reply.subarray(8, 8 + reply[1]).toString('latin1');
      throw new Error(
        `the X server refused the connection: ${reason || 'authentication required'}`,
      );
    }
    return new X11KeymapClient(socket, reply[34], reply[35]);
  }

  async keyboardMap(): Promise<KeyboardMap> {
    const count = this.maxKeycode - this.minKeycode + 1;
    const request = Buffer.alloc(8);
    request[0] = 101; // GetKeyboardMapping
    request.writeUInt16LE(2, 2);
    request[4] = this.minKeycode;
    request[5] = count;
    const reply = await this.roundTrip(request);
    const keysymsPerKeycode = reply[1];
    const keysyms: number[] = [];
    for (let i = 0; i < count * keysymsPerKeycode; i++)
      keysyms.push(reply.readUInt32LE(32 + i * 4));
    return { minKeycode: this.minKeycode, maxKeycode: this.maxKeycode, keysymsPerKeycode, keysyms };
  }

  /** Puts each keysym on the first two levels of its keycode, and waits until the server has it. */
  async change(changes: KeymapChange[], keysymsPerKeycode: number): Promise<void> {
    for (const { keycode, keysym } of changes) {
      const request = Buffer.alloc(8 + keysymsPerKeycode * 4);
      request[0] = 100; // ChangeKeyboardMapping
      request[1] = 1; // one keycode
      request.writeUInt16LE(2 + keysymsPerKeycode, 2);
      request[4] = keycode;
      request[5] = keysymsPerKeycode;
      request.writeUInt32LE(keysym, 8);
      if (keysymsPerKeycode > 1) request.writeUInt32LE(keysym, 12);
      this.socket.write(request);
    }
    // GetInputFocus has a reply: once it arrives, every request before it was processed.
    const sync = Buffer.alloc(4);
    sync[0] = 43;
    sync.writeUInt16LE(1, 2);
    await this.roundTrip(sync);
  }

  close(): void {
    this.socket.destroy();
  }

  private roundTrip(request: Buffer): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new Error('one X request at a time'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(new Error('the X server did not answer within 5 s')),
        5000,
      );
      this.waiting = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.socket.write(request);
    });
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 32) {
      const kind = this.buffer[0];
      const length = kind === 1 ? 32 + this.buffer.readUInt32LE(4) * 4 : 32;
      if (this.buffer.length < length) return;
      const packet = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      if (kind === 0) {
        // An error; the codes that matter here: 2 BadValue, 8 BadMatch (a keycode out of range).
        this.fail(
          new Error(`the X server answered error ${packet[1]} to request ${packet[10]}`),
          false,
        );
      } else if (kind === 1) {
        const waiting = this.waiting;
        this.waiting = null;
        waiting?.resolve(Buffer.from(packet));
      }
      // Anything else is an event (every client gets MappingNotify): not ours to handle.
    }
  }

  private fail(err: Error, fatal = true): void {
    if (fatal) this.failure = err;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(err);
  }
}
