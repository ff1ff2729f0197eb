/**
 * A small client of the X11 protocol, for the few requests the x11 backend makes itself:
 * GetImage (screenshots: one request, the pixels straight from the server, about 6 ms for
 * 1280x800 where a general capture library took 15 to 20 ms here), and GetKeyboardMapping /
 * ChangeKeyboardMapping (exact typing, see x11-keymap.ts), the root window's AT_SPI_BUS
 * property (where applications find the accessibility bus), and the windows on the screen in
 * their stacking order (what the outline leaves out under a popup). Input itself goes through
 * xdotool. The bytes themselves are read in x11-wire.ts.
 *
 * It connects like Xlib does: the display's Unix socket (or TCP for `host:N`), authenticated with
 * the user's MIT-MAGIC-COOKIE-1 from XAUTHORITY or ~/.Xauthority when there is one.
 */
import { readFileSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SerialQueue } from '../../idempotency';
import type { KeyboardMap, KeymapChange } from './x11-keymap';
import {
  cookieFor,
  PacketReader,
  pad4,
  parseDisplay,
  parseSetup,
  parseXauthority,
  type ScreenInfo,
  type StackedWindow,
  childrenOf,
  windowOf,
} from './x11-wire';

const REQUEST_TIMEOUT_MS = 5000;
/** Windows on the screen read at most; more, and the stack is not read (the outline fails). */
export const MAX_STACKED = 2048;
/** The predefined atom STRING (Latin-1 text). */
const STRING_ATOM = 31;

/** Whether sequence number `n` lies in first..last, counting round past 65535. */
function inRange(n: number, first: number, last: number): boolean {
  return ((n - first) & 0xffff) <= ((last - first) & 0xffff);
}

export class X11Client {
  private readonly reader = new PacketReader();
  private readonly queue = new SerialQueue();
  private waiting: {
    /** Sequence numbers of the exchange's first and last request. */
    first: number;
    last: number;
    /**
     * Every request's reply, by its place in the exchange, an error as null; absent: only the
     * last request has a reply, and an error fails the exchange.
     */
    replies?: Array<Buffer | null>;
    resolve: (reply: Buffer | null) => void;
    reject: (err: Error) => void;
  } | null = null;
  private failure: Error | null = null;
  /** The sequence number of the last request sent (16 bits, as the server counts). */
  private sequence = 0;

  private constructor(
    private readonly socket: Socket,
    readonly screen: ScreenInfo,
  ) {
    socket.on('data', (chunk: Buffer) => {
      for (const packet of this.reader.push(chunk)) this.receive(packet);
    });
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('the X server closed the connection')));
  }

  static async connect(display: string, env: NodeJS.ProcessEnv = process.env): Promise<X11Client> {
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
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the X server at ${display} did not answer`));
      }, REQUEST_TIMEOUT_MS);
      const onData = (chunk: Buffer) => {
        got = Buffer.concat([got, chunk]);
        if (got.length < 8) return;
        const total = 8 + got.readUInt16LE(6) * 4;
        if (got.length < total) return;
        clearTimeout(timer);
        socket.off('data', onData);
        resolve(got);
      };
      socket.on('data', onData);
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      socket.write(setup);
    });
    if (reply[0] !== 1) {
      socket.destroy();
      const reason = reply.subarray(8, 8 + reply[1]).toString('latin1');
      throw new Error(
        `the X server refused the connection: ${reason || 'authentication required'}`,
      );
    }
    return new X11Client(socket, parseSetup(reply));
  }

  /**
   * The pixels of a rectangle of the root window (ZPixmap). With 24/32-bit pixels in LSBFirst
   * order, each pixel is B, G, R, X in memory.
   */
  async getImage(x: number, y: number, width: number, height: number): Promise<Buffer> {
    const request = Buffer.alloc(20);
    request[0] = 73; // GetImage
    request[1] = 2; // ZPixmap
    request.writeUInt16LE(5, 2);
    request.writeUInt32LE(this.screen.root, 4);
    request.writeInt16LE(x, 8);
    request.writeInt16LE(y, 10);
    request.writeUInt16LE(width, 12);
    request.writeUInt16LE(height, 14);
    request.writeUInt32LE(0xffffffff, 16);
    const reply = await this.roundTrip([request]);
    return reply.subarray(32, 32 + width * height * 4);
  }

  /** The root window's current size (it changes when the display is resized). */
  async rootSize(): Promise<{ width: number; height: number }> {
    const request = Buffer.alloc(8);
    request[0] = 14; // GetGeometry
    request.writeUInt16LE(2, 2);
    request.writeUInt32LE(this.screen.root, 4);
    const reply = await this.roundTrip([request]);
    return { width: reply.readUInt16LE(16), height: reply.readUInt16LE(18) };
  }

  async keyboardMap(): Promise<KeyboardMap> {
    const { minKeycode, maxKeycode } = this.screen;
    const count = maxKeycode - minKeycode + 1;
    const request = Buffer.alloc(8);
    request[0] = 101; // GetKeyboardMapping
    request.writeUInt16LE(2, 2);
    request[4] = minKeycode;
    request[5] = count;
    const reply = await this.roundTrip([request]);
    const keysymsPerKeycode = reply[1];
    const keysyms: number[] = [];
    for (let i = 0; i < count * keysymsPerKeycode; i++)
      keysyms.push(reply.readUInt32LE(32 + i * 4));
    return { minKeycode, maxKeycode, keysymsPerKeycode, keysyms };
  }

  /** Puts each keysym on the first two levels of its keycode, and waits until the server has it. */
  async changeKeyboardMap(changes: KeymapChange[], keysymsPerKeycode: number): Promise<void> {
    const requests = changes.map(({ keycode, keysym }) => {
      const request = Buffer.alloc(8 + keysymsPerKeycode * 4);
      request[0] = 100; // ChangeKeyboardMapping
      request[1] = 1; // one keycode
      request.writeUInt16LE(2 + keysymsPerKeycode, 2);
      request[4] = keycode;
      request[5] = keysymsPerKeycode;
      request.writeUInt32LE(keysym, 8);
      if (keysymsPerKeycode > 1) request.writeUInt32LE(keysym, 12);
      return request;
    });
    // GetInputFocus has a reply: once it arrives, every request before it was processed.
    const sync = Buffer.alloc(4);
    sync[0] = 43;
    sync.writeUInt16LE(1, 2);
    await this.roundTrip([...requests, sync]);
  }

  /** The atom of a name, made if the server does not know it yet (InternAtom). */
  async atom(name: string): Promise<number> {
    const bytes = Buffer.from(name, 'latin1');
    const request = Buffer.alloc(8 + bytes.length + pad4(bytes.length));
    request[0] = 16; // InternAtom
    request[1] = 0; // only-if-exists: false
    request.writeUInt16LE(request.length / 4, 2);
    request.writeUInt16LE(bytes.length, 4);
    bytes.copy(request, 8);
    const reply = await this.roundTrip([request]);
    return reply.readUInt32LE(8);
  }

  /** A STRING property of the root window (at most 64 KiB), or null when it is not set. */
  async rootStringProperty(name: string): Promise<string | null> {
    const property = await this.atom(name);
    const request = Buffer.alloc(24);
    request[0] = 20; // GetProperty
    request[1] = 0; // delete: false
    request.writeUInt16LE(6, 2);
    request.writeUInt32LE(this.screen.root, 4);
    request.writeUInt32LE(property, 8);
    request.writeUInt32LE(STRING_ATOM, 12);
    request.writeUInt32LE(0, 16);
    request.writeUInt32LE(16 * 1024, 20); // in 4-byte units
    const reply = await this.roundTrip([request]);
    const format = reply[1];
    const type = reply.readUInt32LE(8);
    if (type !== STRING_ATOM || format !== 8) return null;
    const length = reply.readUInt32LE(16);
    return reply.subarray(32, 32 + length).toString('latin1');
  }

  /** Sets (null: deletes) a STRING property of the root window, and waits until the server has it. */
  async setRootStringProperty(name: string, value: string | null): Promise<void> {
    const property = await this.atom(name);
    let request: Buffer;
    if (value === null) {
      request = Buffer.alloc(12);
      request[0] = 19; // DeleteProperty
      request.writeUInt16LE(3, 2);
      request.writeUInt32LE(this.screen.root, 4);
      request.writeUInt32LE(property, 8);
    } else {
      const bytes = Buffer.from(value, 'latin1');
      request = Buffer.alloc(24 + bytes.length + pad4(bytes.length));
      request[0] = 18; // ChangeProperty
      request[1] = 0; // Replace
      request.writeUInt16LE(request.length / 4, 2);
      request.writeUInt32LE(this.screen.root, 4);
      request.writeUInt32LE(property, 8);
      request.writeUInt32LE(STRING_ATOM, 12);
      request[16] = 8; // format: bytes
      request.writeUInt32LE(bytes.length, 20);
      bytes.copy(request, 24);
    }
    const sync = Buffer.alloc(4);
    sync[0] = 43; // GetInputFocus: its reply says the request before it was processed
    sync.writeUInt16LE(1, 2);
    await this.roundTrip([request, sync]);
  }

  /** True once the connection failed for good; a new one is needed. */
  get broken(): boolean {
    return this.failure !== null;
  }

  close(): void {
    this.failure ??= new Error('the X connection was closed');
    this.socket.destroy();
  }

  /**
   * The windows on the screen, bottom to top: the root window's children that are viewable
   * (QueryTree lists them in their stacking order, override-redirect popups and menus too), each
   * with its place on the root window. Two exchanges, however many windows there are.
   */
  async stack(): Promise<StackedWindow[]> {
    const query = Buffer.alloc(8);
    query[0] = 15; // QueryTree
    query.writeUInt16LE(2, 2);
    query.writeUInt32LE(this.screen.root, 4);
    const children = childrenOf(await this.roundTrip([query]));
    if (children.length > MAX_STACKED) {
      throw new Error(`the screen has ${children.length} windows, more than ${MAX_STACKED}`);
    }
    if (children.length === 0) return [];
    const requests = children.flatMap((id) =>
      [3, 14].map((opcode) => {
        // GetWindowAttributes, GetGeometry
        const request = Buffer.alloc(8);
        request[0] = opcode;
        request.writeUInt16LE(2, 2);
        request.writeUInt32LE(id, 4);
        return request;
      }),
    );
    const replies = await this.exchange(requests, requests.length);
    return children
      .map((id, i) => windowOf(id, replies[2 * i], replies[2 * i + 1]))
      .filter((w): w is StackedWindow => w !== null);
  }

  /** Sends requests of which the last has a reply, one exchange at a time, and returns that reply. */
  private roundTrip(requests: Buffer[]): Promise<Buffer> {
    return this.exchange(requests);
  }

  /**
   * Sends requests, one exchange at a time. Without `replies`, only the last has a reply, which is
   * returned, and an error fails the exchange. With `replies` (their count), every request has
   * one: all of them are returned in order, an error as null (a window gone since it was listed).
   */
  private exchange(requests: Buffer[]): Promise<Buffer>;
  private exchange(requests: Buffer[], replies: number): Promise<Array<Buffer | null>>;
  private exchange(requests: Buffer[], replies?: number): Promise<unknown> {
    return this.queue.run(
      () =>
        new Promise<unknown>((resolve, reject) => {
          if (this.failure) {
            reject(this.failure);
            return;
          }
          const timer = setTimeout(
            () =>
              this.fail(
                new Error(`the X server did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`),
              ),
            REQUEST_TIMEOUT_MS,
          );
          const first = (this.sequence + 1) & 0xffff;
          this.sequence = (this.sequence + requests.length) & 0xffff;
          const collected: Array<Buffer | null> | undefined =
            replies === undefined ? undefined : new Array<Buffer | null>(replies).fill(null);
          this.waiting = {
            first,
            last: this.sequence,
            replies: collected,
            resolve: (reply) => {
              clearTimeout(timer);
              resolve(collected ?? reply);
            },
            reject: (err) => {
              clearTimeout(timer);
              reject(err);
            },
          };
          for (const request of requests) this.socket.write(request);
        }),
    );
  }

  private receive(packet: Buffer): void {
    const kind = packet[0];
    if (kind !== 0 && kind !== 1) return; // an event (every client gets MappingNotify): not ours
    const waiting = this.waiting;
    const sequence = packet.readUInt16LE(2);
    if (!waiting || !inRange(sequence, waiting.first, waiting.last)) return; // stale
    if (waiting.replies) {
      waiting.replies[(sequence - waiting.first) & 0xffff] = kind === 1 ? packet : null;
      if (sequence === waiting.last) {
        this.waiting = null;
        waiting.resolve(null);
      }
    } else if (kind === 0) {
      // An error (2 BadValue, 8 BadMatch …) fails the exchange; the connection stays usable.
      this.fail(
        new Error(`the X server answered error ${packet[1]} to request ${packet[10]}`),
        false,
      );
    } else if (sequence === waiting.last) {
      this.waiting = null;
      waiting.resolve(packet);
    }
  }

  private fail(err: Error, fatal = true): void {
    if (fatal) {
      this.failure = err;
      this.socket.destroy();
    }
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(err);
  }
}
