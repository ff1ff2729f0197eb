import { crc32 } from 'node:zlib';

/**
 * The PNG with a tEXt chunk (`Comment`) after its header: other bytes, and so another SHA-256, for
 * the same pixels, as a host whose encoder writes something of its own into every file (a time, a
 * counter) would serve them.
 */
export function withTextChunk(png: Buffer, text: string): Buffer {
  const data = Buffer.from(`Comment\0${text}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  // Signature (8) and IHDR (25) first, as PNG wants.
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}
