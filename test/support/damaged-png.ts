import { crc32 } from 'node:zlib';

/**
 * The PNG with bytes in the middle of its image data changed and the chunk's CRC made right again:
 * damage that only inflating the data shows (a broken encoder's).
 */
export function corruptIdat(png: Buffer): Buffer {
  const out = Buffer.from(png);
  for (let at = 8; at < out.length;) {
    const length = out.readUInt32BE(at);
    if (out.toString('latin1', at + 4, at + 8) === 'IDAT') {
      const data = at + 8;
      for (let i = Math.floor(length / 3); i < Math.floor(length / 3) + 16; i++)
        out[data + i] ^= 0x5a;
      out.writeUInt32BE(crc32(out.subarray(at + 4, data + length)), data + length);
      return out;
    }
    at += 12 + length;
  }
  throw new Error('no IDAT chunk');
}
