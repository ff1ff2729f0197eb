import { createHash } from 'node:crypto';

/** The SHA-256 of a string (as UTF-8) or of bytes, in hex. */
export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}
