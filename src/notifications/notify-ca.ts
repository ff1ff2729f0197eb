import { readFileSync } from 'node:fs';

const read = new Map<string, Buffer>();

/**
 * The extra CA certificates (PEM) notifications trust besides the system's (NOTIFY_CA_FILE), read
 * once per file; null when the deployment sets none.
 */
export function notifyCa(file: string | undefined): Buffer | null {
  if (!file) return null;
  let ca = read.get(file);
  if (!ca) {
    ca = readFileSync(file);
    read.set(file, ca);
  }
  return ca;
}
