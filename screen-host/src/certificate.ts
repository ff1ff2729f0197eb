import { X509Certificate } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generate } from 'selfsigned';

export interface CreatedCertificate {
  certPath: string;
  keyPath: string;
  /** SHA-256 of the certificate's DER, lower-case hex without colons: what Warden pins. */
  fingerprintSha256: string;
}

export interface CertificateOptions {
  /** Host names and IP addresses the certificate is for, besides localhost, 127.0.0.1 and ::1. */
  hosts?: string[];
  /** Validity in days (default 825, the longest clients accept for a server certificate). */
  days?: number;
}

const IP_PATTERN = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:]*)$/;

/** The fingerprint Warden pins: SHA-256 of the DER, hex, lower case, no colons. */
export function fingerprintOf(certPem: string | Buffer): string {
  return new X509Certificate(certPem).fingerprint256.replace(/:/g, '').toLowerCase();
}

/** Writes `DIR/cert.pem` and `DIR/key.pem` (0600): a self-signed P-256 certificate for the host. */
export async function createCertificate(
  dir: string,
  options: CertificateOptions = {},
): Promise<CreatedCertificate> {
  const hosts = [...new Set(['localhost', '127.0.0.1', '::1', ...(options.hosts ?? [])])];
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + (options.days ?? 825) * 86_400_000);
  const pems = await generate(
    [{ name: 'commonName', value: options.hosts?.[0] ?? 'warden-screen-host' }],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: hosts.map((h) =>
            IP_PATTERN.test(h) ? { type: 7 as const, ip: h } : { type: 2 as const, value: h },
          ),
        },
      ],
    },
  );
  const out = resolve(dir);
  await mkdir(out, { recursive: true });
  const certPath = join(out, 'cert.pem');
  const keyPath = join(out, 'key.pem');
  await writeFile(keyPath, pems.private, { mode: 0o600 });
  await chmod(keyPath, 0o600); // also when an older key.pem was there with a wider mode
  await writeFile(certPath, pems.cert, { mode: 0o644 });
  return { certPath, keyPath, fingerprintSha256: fingerprintOf(pems.cert) };
}
