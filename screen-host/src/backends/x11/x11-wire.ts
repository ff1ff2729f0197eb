/**
 * The X11 protocol's bytes, read without a connection (pure): the display's name, the user's
 * Xauthority, the server's connection setup reply, the stream of replies, errors and events, and
 * the replies the host asks for a window's place on the screen.
 */
import { hostname } from 'node:os';

export interface DisplayAddress {
  /** A Unix socket path, or a TCP host and port. */
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

export function pad4(n: number): number {
  return (4 - (n % 4)) % 4;
}

export interface ScreenInfo {
  root: number;
  width: number;
  height: number;
  depth: number;
  /** Bits per pixel of the root depth's pixmap format. */
  bitsPerPixel: number;
  /** 0: LSBFirst (little-endian pixels, BGRX in memory), 1: MSBFirst. */
  imageByteOrder: number;
  minKeycode: number;
  maxKeycode: number;
}

/** Reads what the x11 backend needs from the server's connection setup reply. */
export function parseSetup(reply: Buffer): ScreenInfo {
  const vendorLength = reply.readUInt16LE(24);
  const screens = reply[28];
  const formats = reply[29];
  if (screens < 1) throw new Error('the X server has no screen');
  const formatsAt = 40 + vendorLength + pad4(vendorLength);
  const screenAt = formatsAt + 8 * formats;
  const depth = reply[screenAt + 38];
  let bitsPerPixel = 0;
  for (let i = 0; i < formats; i++) {
    if (reply[formatsAt + 8 * i] === depth) bitsPerPixel = reply[formatsAt + 8 * i + 1];
  }
  return {
    root: reply.readUInt32LE(screenAt),
    width: reply.readUInt16LE(screenAt + 20),
    height: reply.readUInt16LE(screenAt + 22),
    depth,
    bitsPerPixel,
    imageByteOrder: reply[30],
    minKeycode: reply[34],
    maxKeycode: reply[35],
  };
}

/** Splits the server's byte stream into replies (32 bytes plus their length), errors and events. */
export class PacketReader {
  private chunks: Buffer[] = [];
  private length = 0;

  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.length += chunk.length;
    const packets: Buffer[] = [];
    while (this.length >= 32) {
      const head = this.peek(8);
      const size = head[0] === 1 ? 32 + head.readUInt32LE(4) * 4 : 32;
      if (this.length < size) break;
      // One copy per packet, however many chunks a 4 MB image arrived in.
      const all =
        this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
      packets.push(all.subarray(0, size));
      const rest = all.subarray(size);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.length = rest.length;
    }
    return packets;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length >= n) return this.chunks[0];
    const head = Buffer.concat(this.chunks);
    this.chunks = [head];
    return head;
  }
}

/** A window on the screen, as the stack lists it. */
export interface StackedWindow {
  id: number;
  /**
   * Where it is on the root window, its border included. An InputOnly window draws nothing but
   * takes the clicks on it: it counts like any other.
   */
  rect: { x: number; y: number; width: number; height: number };
}

/** The children of a QueryTree reply, bottom to top as the server stacks them. */
export function childrenOf(reply: Buffer): number[] {
  const count = reply.readUInt16LE(16);
  const children: number[] = [];
  for (let i = 0; i < count && 32 + 4 * i + 4 <= reply.length; i++) {
    children.push(reply.readUInt32LE(32 + 4 * i));
  }
  return children;
}

/** The map state IsViewable: mapped, and every window it lies in too. */
const VIEWABLE = 2;

/**
 * A root window's child from its GetWindowAttributes and GetGeometry replies (null for an error:
 * a window gone since the tree was read): the window when it is viewable, else null.
 */
export function windowOf(
  id: number,
  attributes: Buffer | null,
  geometry: Buffer | null,
): StackedWindow | null {
  if (!attributes || !geometry || attributes[26] !== VIEWABLE) return null;
  const border = geometry.readUInt16LE(20);
  return {
    id,
    rect: {
      x: geometry.readInt16LE(12),
      y: geometry.readInt16LE(14),
      width: geometry.readUInt16LE(16) + 2 * border,
      height: geometry.readUInt16LE(18) + 2 * border,
    },
  };
}
