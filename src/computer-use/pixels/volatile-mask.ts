/**
 * The volatile mask (docs/security.md): the pixels of a screen that moved on their own while Warden
 * sampled it (a blinking caret, a clock), left out when a held write's screen is compared again.
 *
 * Stored compactly as runs of masked pixels in row-major order:
 *   "WVM" 0x01 | varint width | varint height | varint runs | runs × (varint gap, varint length)
 * where `gap` counts unmasked pixels since the end of the previous run. A caret is a few dozen
 * bytes; an empty mask is nine.
 */
import { ScreenError } from './screen-error';
import { MAX_DECODED_BYTES, MAX_SIDE } from './png-structure';

const MAGIC = Buffer.from('WVM\x01', 'latin1');
const MAX_PIXELS = MAX_DECODED_BYTES / 4;

export class VolatileMask {
  /** Number of masked pixels. */
  readonly size: number;

  /** One bit per pixel, row-major, least significant bit first. Do not change it. */
  private constructor(
    readonly width: number,
    readonly height: number,
    readonly bits: Uint8Array,
  ) {
    let size = 0;
    for (let i = 0; i < bits.length; i++) {
      let b = bits[i];
      while (b) {
        b &= b - 1;
        size++;
      }
    }
    this.size = size;
  }

  static empty(width: number, height: number): VolatileMask {
    checkSize(width, height);
    return new VolatileMask(width, height, new Uint8Array(Math.ceil((width * height) / 8)));
  }

  /** From a bitset built by this module (see `learnVolatileMask`). */
  static fromBits(width: number, height: number, bits: Uint8Array): VolatileMask {
    checkSize(width, height);
    if (bits.length !== Math.ceil((width * height) / 8)) {
      throw new ScreenError(
        `a ${width}x${height} mask needs ${Math.ceil((width * height) / 8)} bytes of bits`,
      );
    }
    return new VolatileMask(width, height, bits);
  }

  /** The pixels of both masks; a mask of another size is replaced, not joined. */
  union(other: VolatileMask): VolatileMask {
    if (other.width !== this.width || other.height !== this.height) return other;
    const bits = new Uint8Array(this.bits.length);
    for (let i = 0; i < bits.length; i++) bits[i] = this.bits[i] | other.bits[i];
    return new VolatileMask(this.width, this.height, bits);
  }

  has(x: number, y: number): boolean {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return false;
    return this.hasIndex(y * this.width + x);
  }

  /** `index` is `y * width + x`. */
  hasIndex(index: number): boolean {
    return (this.bits[index >> 3] & (1 << (index & 7))) !== 0;
  }

  toBuffer(): Buffer {
    const out = new VarintWriter();
    out.bytes(MAGIC);
    out.varint(this.width);
    out.varint(this.height);
    const runs: number[] = [];
    const n = this.width * this.height;
    let i = 0;
    let previousEnd = 0;
    while (i < n) {
      // Skip whole empty bytes quickly: masks are mostly empty.
      if ((i & 7) === 0 && this.bits[i >> 3] === 0) {
        i += 8;
        continue;
      }
      if (!this.hasIndex(i)) {
        i++;
        continue;
      }
      const start = i;
      while (i < n && this.hasIndex(i)) i++;
      runs.push(start - previousEnd, i - start);
      previousEnd = i;
    }
    out.varint(runs.length / 2);
    for (const value of runs) out.varint(value);
    return out.finish();
  }

  /** Parses what `toBuffer` wrote; anything else is a ScreenError. */
  static fromBuffer(data: Buffer): VolatileMask {
    if (
      !Buffer.isBuffer(data) ||
      data.length < MAGIC.length ||
      !data.subarray(0, 4).equals(MAGIC)
    ) {
      throw new ScreenError("the volatile mask is not in Warden's mask format (version 1)");
    }
    const input = new VarintReader(data, MAGIC.length);
    const width = input.varint();
    const height = input.varint();
    checkSize(width, height);
    const n = width * height;
    const count = input.varint();
    if (count > Math.ceil(n / 2))
      throw new ScreenError('the volatile mask has more runs than pixels');
    const bits = new Uint8Array(Math.ceil(n / 8));
    let position = 0;
    for (let r = 0; r < count; r++) {
      const gap = input.varint();
      const length = input.varint();
      if ((r > 0 && gap === 0) || length === 0 || position + gap + length > n) {
        throw new ScreenError(
          'the volatile mask is damaged: a run is empty, overlaps or overflows',
        );
      }
      position += gap;
      fillBits(bits, position, position + length);
      position += length;
    }
    if (!input.done())
      throw new ScreenError('the volatile mask is damaged: bytes after its last run');
    return new VolatileMask(width, height, bits);
  }
}

function checkSize(width: number, height: number): void {
  if (
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width < 1 ||
    height < 1 ||
    width > MAX_SIDE ||
    height > MAX_SIDE ||
    width * height > MAX_PIXELS
  ) {
    throw new ScreenError(`a volatile mask of ${width}x${height} pixels is not possible`);
  }
}

/** Sets bits [from, to). */
export function fillBits(bits: Uint8Array, from: number, to: number): void {
  let i = from;
  while (i < to && (i & 7) !== 0) {
    bits[i >> 3] |= 1 << (i & 7);
    i++;
  }
  while (i + 8 <= to) {
    bits[i >> 3] = 0xff;
    i += 8;
  }
  while (i < to) {
    bits[i >> 3] |= 1 << (i & 7);
    i++;
  }
}

class VarintWriter {
  private buffer = Buffer.allocUnsafe(64);
  private length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }

  bytes(data: Buffer): void {
    this.reserve(data.length);
    data.copy(this.buffer, this.length);
    this.length += data.length;
  }

  /** Unsigned LEB128, values below 2^32. */
  varint(value: number): void {
    this.reserve(5);
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buffer[this.length++] = v;
  }

  finish(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }
}

class VarintReader {
  constructor(
    private readonly data: Buffer,
    private offset: number,
  ) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 5; i++) {
      if (this.offset >= this.data.length) throw new ScreenError('the volatile mask is cut off');
      const byte = this.data[this.offset++];
      value += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) {
        if (value > 0xffffffff) break;
        return value;
      }
      scale *= 128;
    }
    throw new ScreenError('the volatile mask is damaged: a number is too long');
  }

  done(): boolean {
    return this.offset === this.data.length;
  }
}
