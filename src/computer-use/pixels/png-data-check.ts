import { createInflate } from 'node:zlib';
import { inflatedSize, type PngHeader, readChunks, rowBytes } from './png-structure';
import { ScreenError } from './screen-error';

/** Inflated pixel data checked at a time by checkPngData, then dropped. */
const CHECK_CHUNK = 256 * 1024;

/**
 * Checks a PNG as far as decodePng would, without making its pixels: every chunk and CRC, and
 * that its compressed data inflates (Adler-32 included) to exactly the size its header says, with
 * a known filter on every row. The data is inflated on libuv's pool a chunk at a time and dropped:
 * no image-sized buffer (allocating and first touching megabytes per screen was most of the cost
 * of inflating it in one piece). Answers its header (issue 18 §1).
 */
export async function checkPngData(png: Buffer): Promise<PngHeader> {
  const { header, idat } = readChunks(png);
  const expected = inflatedSize(header);
  // Where a row's filter byte is, for a PNG that is not interlaced (Adam7's passes differ).
  const stride = header.interlaced ? 0 : rowBytes(header.width, header) + 1;
  let seen = 0;
  await new Promise<void>((resolve, reject) => {
    const inflate = createInflate({ chunkSize: CHECK_CHUNK });
    inflate.on('data', (chunk: Buffer) => {
      if (seen + chunk.length > expected) {
        inflate.destroy(
          new ScreenError(
            'the PNG is damaged: its compressed data holds more pixel data than its size allows',
          ),
        );
        return;
      }
      if (stride > 0) {
        for (let at = (stride - (seen % stride)) % stride; at < chunk.length; at += stride) {
          if (chunk[at] > 4) {
            const row = (seen + at) / stride;
            inflate.destroy(
              new ScreenError(`the PNG is damaged: row ${row} has an unknown filter`),
            );
            return;
          }
        }
      }
      seen += chunk.length;
    });
    inflate.on('end', resolve);
    inflate.on('error', (error) =>
      reject(
        error instanceof ScreenError
          ? error
          : new ScreenError(
              'the PNG is damaged or cut off: its compressed pixel data does not inflate',
            ),
      ),
    );
    for (const part of idat) inflate.write(part);
    inflate.end();
  });
  if (seen !== expected) {
    throw new ScreenError(
      `the PNG is damaged: its pixel data is ${seen} bytes, ${expected} expected`,
    );
  }
  return header;
}
