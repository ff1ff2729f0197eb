/**
 * The command line as an operator uses it: make a certificate, pin it, start a host, stop it.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { connect } from 'node:tls';
import { join } from 'node:path';
import { call, runCliToEnd, startCliHost, tempDir, TOKEN } from './helpers';

/** The SHA-256 of the DER certificate a TLS server presents, as Warden pins it. */
function servedFingerprint(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: hostname, port: Number(port), rejectUnauthorized: false },
      () => {
        const der = socket.getPeerCertificate(true).raw;
        socket.end();
        resolve(createHash('sha256').update(der).digest('hex'));
      },
    );
    socket.once('error', reject);
  });
}

describe('screen-host CLI', () => {
  let certDir: string;
  let fingerprint: string;

  beforeAll(async () => {
    certDir = join(tempDir(), 'certs');
    const result = await runCliToEnd(['cert', '--out', certDir, '--host', 'sapgui-host.internal']);
    expect(result.code).toBe(0);
    fingerprint = result.stdout.trim().split('\n').at(-1)!;
  });

  it('cert --out writes cert.pem and key.pem and prints the fingerprint on its last line', () => {
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const pem = readFileSync(join(certDir, 'cert.pem'));
    const cert = new X509Certificate(pem);
    expect(createHash('sha256').update(cert.raw).digest('hex')).toBe(fingerprint);
    expect(cert.subjectAltName).toContain('DNS:sapgui-host.internal');
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(statSync(join(certDir, 'key.pem')).mode & 0o077).toBe(0);
  });

  it('serves HTTPS with that certificate, so the fingerprint pins it, and stops on SIGTERM', async () => {
    const host = await startCliHost(
      [
        '--backend',
        'sim',
        '--port',
        '0',
        '--cert',
        join(certDir, 'cert.pem'),
        '--key',
        join(certDir, 'key.pem'),
        '--quiet',
        '--no-action-log',
      ],
      { SCREEN_HOST_TOKEN: TOKEN },
    );
    try {
      expect(host.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(await servedFingerprint(host.url)).toBe(fingerprint);
      const health = await call(host.url, '/health', {
        ca: readFileSync(join(certDir, 'cert.pem')),
      });
      expect(health.json()).toMatchObject({ backend: 'sim', width: 1280, height: 800 });
      expect(host.stderr()).not.toContain(TOKEN);
    } finally {
      const exited = new Promise<number | null>((r) => host.child.once('exit', (code) => r(code)));
      await host.close();
      expect(await exited).toBe(0);
    }
  });

  it('refuses to start without SCREEN_HOST_TOKEN, or with a short one', async () => {
    const args = ['--backend', 'sim', '--port', '0', '--insecure-loopback'];
    const none = await runCliToEnd(args, { SCREEN_HOST_TOKEN: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('SCREEN_HOST_TOKEN');
    const short = await runCliToEnd(args, { SCREEN_HOST_TOKEN: 'too-short' });
    expect(short.code).toBe(2);
    expect(short.stderr).not.toContain('too-short');
  });

  it('refuses plain HTTP unless asked for, and off loopback', async () => {
    const noTls = await runCliToEnd(['--backend', 'sim', '--port', '0'], {
      SCREEN_HOST_TOKEN: TOKEN,
    });
    expect(noTls.code).toBe(2);
    expect(noTls.stderr).toContain('--cert');
    const open = await runCliToEnd(
      ['--backend', 'sim', '--port', '0', '--insecure-loopback', '--host', '0.0.0.0'],
      {
        SCREEN_HOST_TOKEN: TOKEN,
      },
    );
    expect(open.code).toBe(1);
    expect(open.stderr).toContain('127.0.0.1');
  });

  it('refuses an unknown backend or flag', async () => {
    expect((await runCliToEnd(['--backend', 'vnc'], { SCREEN_HOST_TOKEN: TOKEN })).code).toBe(2);
    expect(
      (await runCliToEnd(['--backend', 'sim', '--frobnicate'], { SCREEN_HOST_TOKEN: TOKEN })).code,
    ).toBe(2);
  });

  it('--insecure-loopback serves plain HTTP on 127.0.0.1 with --test-routes, --lang de and --no-elements', async () => {
    const host = await startCliHost(
      [
        '--backend',
        'sim',
        '--port',
        '0',
        '--insecure-loopback',
        '--quiet',
        '--lang',
        'de',
        '--no-elements',
        '--test-routes',
        '--action-log',
        '',
      ],
      { SCREEN_HOST_TOKEN: TOKEN },
    );
    try {
      expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await call(host.url, '/elements')).status).toBe(404);
      expect((await call(host.url, '/sim/events')).status).toBe(200);
      expect((await call(host.url, '/health')).json().capabilities).toEqual([
        'idempotency',
        'action-lookup',
        'frame_precondition',
        'sim-test-routes',
      ]);
    } finally {
      await host.close();
    }
  });
});
