#!/usr/bin/env node
/**
 * The screen host's command line:
 *   screen-host --backend sim|x11|windows --port 8443 --cert cert.pem --key key.pem
 *   screen-host cert --out DIR
 * The bearer token comes from SCREEN_HOST_TOKEN and is never printed or logged.
 */
import { parseArgs } from 'node:util';
import { createCertificate } from './certificate';
import { MIN_TOKEN_LENGTH, startScreenHost } from './host';

const USAGE = `Usage:
  screen-host --backend sim|x11|windows [--host 127.0.0.1] [--port 8443]
              (--cert cert.pem --key key.pem | --insecure-loopback)
              [--action-log screen-host-actions.log | --no-action-log] [--quiet]
              [--no-elements]                                     (any: serve no outline)
              [--lang en|de] [--test-routes]                      (sim)
              [--display :0]                                      (x11)
              [--sap-gui tree|walk|off] [--sap-gui-powershell PATH] (windows)
  screen-host cert --out DIR [--host NAME ...]

The bearer token is read from the environment variable SCREEN_HOST_TOKEN (at least ${MIN_TOKEN_LENGTH} characters).`;

class UsageError extends Error {}

async function cert(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      host: { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.out) throw new UsageError('cert needs --out DIR');
  const created = await createCertificate(values.out, { hosts: values.host });
  console.log(`certificate: ${created.certPath}`);
  console.log(`key:         ${created.keyPath}`);
  console.log(
    "SHA-256 fingerprint (hex of the DER), to pin in the agent's screen_tls.fingerprint_sha256:",
  );
  console.log(created.fingerprintSha256);
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      backend: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8443' },
      cert: { type: 'string' },
      key: { type: 'string' },
      'insecure-loopback': { type: 'boolean', default: false },
      'action-log': { type: 'string', default: 'screen-host-actions.log' },
      'no-action-log': { type: 'boolean', default: false },
      lang: { type: 'string', default: 'en' },
      'no-elements': { type: 'boolean', default: false },
      'test-routes': { type: 'boolean', default: false },
      display: { type: 'string' },
      'sap-gui': { type: 'string', default: 'tree' },
      'sap-gui-powershell': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const backend = values.backend;
  if (backend !== 'sim' && backend !== 'x11' && backend !== 'windows') {
    throw new UsageError('--backend must be sim, x11 or windows');
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be 0 to 65535');
  if (values.lang !== 'en' && values.lang !== 'de') throw new UsageError('--lang must be en or de');
  const sapGui = values['sap-gui'];
  if (sapGui !== 'tree' && sapGui !== 'walk' && sapGui !== 'off') {
    throw new UsageError('--sap-gui must be tree, walk or off');
  }
  if (Boolean(values.cert) !== Boolean(values.key))
    throw new UsageError('--cert and --key go together');
  if (!values.cert && !values['insecure-loopback']) {
    throw new UsageError(
      'give --cert and --key (make them with: screen-host cert --out DIR), or --insecure-loopback',
    );
  }
  const token = process.env.SCREEN_HOST_TOKEN ?? '';
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new UsageError(
      `set SCREEN_HOST_TOKEN to a secret of at least ${MIN_TOKEN_LENGTH} characters`,
    );
  }
  const running = await startScreenHost({
    backend: backend,
    token,
    host: values.host,
    port,
    tls: values.cert && values.key ? { certPath: values.cert, keyPath: values.key } : undefined,
    insecureLoopback: values['insecure-loopback'],
    lang: values.lang,
    elements: !values['no-elements'],
    testRoutes: values['test-routes'],
    actionLogPath:
      values['no-action-log'] || values['action-log'] === '' ? null : values['action-log'],
    display: values.display,
    sapGui,
    sapGuiPowershell: values['sap-gui-powershell'],
    logger: !values.quiet,
  });
  console.error(`screen host (${backend}) listening on ${running.url}`);
  const stop = () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'cert') return cert(argv.slice(1));
  return serve(argv);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`screen-host: ${message}`);
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(USAGE);
    process.exit(2);
  }
  process.exit(1);
});
