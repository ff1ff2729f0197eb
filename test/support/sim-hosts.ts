/**
 * Sim screen hosts over HTTPS, each with a certificate of its own that Warden pins: in this process
 * (the e2e tests, the bench, the eval: they reach into the sim) or as the screen host's own process
 * (the demo: started as a deployment starts it). The one way every stack makes and pins them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificate, startScreenHost } from '../../screen-host/src';
import type { RunningScreenHost, StartScreenHostOptions } from '../../screen-host/src';
import { ENTRIES, type ProcessGroup, waitUntil } from '../../scripts/lib/processes';

export interface PinnedHost {
  host: RunningScreenHost;
  url: string;
  /** What the agent's `screen_tls.fingerprint_sha256` pins. */
  fingerprint: string;
  certPath: string;
  keyPath: string;
}

/**
 * A screen host in this process on a free loopback port, over HTTPS with a fresh certificate in
 * `dir` (a new temporary folder when none is given), its test routes on. `backend` is 'sim' or a
 * sim of the caller's; `options` may override anything else.
 */
export async function startPinnedHost(
  options: Pick<StartScreenHostOptions, 'backend' | 'token'> &
    Partial<StartScreenHostOptions> & { dir?: string },
): Promise<PinnedHost> {
  const { dir, ...hostOptions } = options;
  const cert = await createCertificate(dir ?? mkdtempSync(join(tmpdir(), 'warden-sim-')));
  const host = await startScreenHost({
    port: 0,
    tls: { certPath: cert.certPath, keyPath: cert.keyPath },
    testRoutes: true,
    ...hostOptions,
  });
  return {
    host,
    url: host.url,
    fingerprint: cert.fingerprintSha256,
    certPath: cert.certPath,
    keyPath: cert.keyPath,
  };
}

export interface HostProcess {
  url: string;
  fingerprint: string;
  certPath: string;
}

/**
 * The sim screen host as its own process, in `processes`: its certificate made by `screen-host
 * cert` in `dir`/certs, `token` given in its environment, a free port; answers once it listens.
 */
export async function startSimHostProcess(
  processes: ProcessGroup,
  dir: string,
  token: string,
  env: NodeJS.ProcessEnv,
): Promise<HostProcess> {
  const certs = join(dir, 'certs');
  const certOut = await processes.run(
    ENTRIES.screenHost,
    ['cert', '--out', certs],
    env,
    'cert.log',
  );
  const fingerprint = certOut.trim().split('\n').pop()!.trim();
  const host = processes.start(
    ENTRIES.screenHost,
    [
      ...['--backend', 'sim', '--port', '0', '--quiet', '--no-action-log', '--test-routes'],
      ...['--cert', join(certs, 'cert.pem'), '--key', join(certs, 'key.pem')],
    ],
    { ...env, SCREEN_HOST_TOKEN: token },
    'screen-host.log',
  );
  let url = '';
  await waitUntil(host, 'its "listening on" line', async () => {
    url = /listening on (https:\/\/\S+)/.exec(host.output())?.[1] ?? '';
    return url !== '';
  });
  return { url, fingerprint, certPath: join(certs, 'cert.pem') };
}
