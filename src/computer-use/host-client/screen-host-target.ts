/**
 * An agent's screen host settings (docs/api.md) checked once and resolved to what a connection
 * needs, and the host's bearer token: a secret released by SecretGrants for the host's origin
 * (docs/screen-host.md), checked again before each request carries it.
 */
import { createHash } from 'node:crypto';
import type { ReleasedSecret } from '../../secrets/secret-grants.service';
import { readCaFile } from '../../common/ca-file';
import { ScreenHostError } from './screen-host-error';
import type { ScreenHostTarget, TlsVerification } from './screen-host.types';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/** `AB:cd:…` or `abcd…` → 64 lower-case hex digits, or null. */
export function normaliseFingerprint(value: string): string | null {
  const hex = value.trim().replace(/:/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

export interface ResolvedTarget {
  url: string;
  host: string;
  port: number;
  basePath: string;
  tokenEnv: string;
  pin: string | null;
  ca: Buffer | null;
  caFile: string | null;
  verifiedBy: TlsVerification;
  /** Same target, same TLS trust: same connection pool. */
  key: string;
}

/**
 * Checks an agent's screen host settings (a CA file only under `caDir`, the deployment's CA_DIR);
 * anything unusable is a `config` ScreenHostError.
 */
export function resolveTarget(target: ScreenHostTarget, caDir?: string): ResolvedTarget {
  const config = (message: string) => new ScreenHostError('config', message);
  if (!target || typeof target.screen_url !== 'string') throw config('screen_url is missing');
  let url: URL;
  try {
    url = new URL(target.screen_url);
  } catch {
    throw config('screen_url is not a URL');
  }
  if (url.protocol !== 'https:') {
    throw config(
      `screen_url must be https:// (it is ${url.protocol}//): a screen host speaks TLS only`,
    );
  }
  if (url.username || url.password) {
    throw config(
      'screen_url must not contain a user or password; the token is named by screen_token_env',
    );
  }
  if (url.search || url.hash) throw config('screen_url must not have a query or fragment');
  if (typeof target.screen_token_env !== 'string' || !ENV_NAME.test(target.screen_token_env)) {
    throw config(
      'screen_token_env must be the name of an environment variable (letters, digits, _)',
    );
  }
  const tls = target.screen_tls ?? {};
  let pin: string | null = null;
  if (tls.fingerprint_sha256 !== undefined && tls.fingerprint_sha256 !== null) {
    pin =
      typeof tls.fingerprint_sha256 === 'string'
        ? normaliseFingerprint(tls.fingerprint_sha256)
        : null;
    if (!pin) {
      throw config(
        'screen_tls.fingerprint_sha256 must be the SHA-256 of the certificate: 64 hex digits, colons optional',
      );
    }
  }
  let ca: Buffer | null = null;
  const caFile = typeof tls.ca_file === 'string' && tls.ca_file !== '' ? tls.ca_file : null;
  if (tls.ca_file !== undefined && tls.ca_file !== null && !caFile) {
    throw config('screen_tls.ca_file must be a file path');
  }
  if (caFile) {
    try {
      ca = readCaFile(caDir, caFile);
    } catch (error) {
      throw config((error as Error).message);
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
      throw config(`screen_tls.ca_file ${JSON.stringify(caFile)} holds no PEM certificate`);
    }
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port ? Number(url.port) : 443;
  const basePath = url.pathname.replace(/\/+$/, '');
  const verifiedBy: TlsVerification = pin
    ? ca
      ? 'pin and ca_file'
      : 'pin'
    : ca
      ? 'ca_file'
      : 'system';
  const caDigest = ca ? createHash('sha256').update(ca).digest('hex') : '';
  return {
    url: `https://${url.host}${basePath}`,
    host,
    port,
    basePath,
    tokenEnv: target.screen_token_env,
    pin,
    ca,
    caFile,
    verifiedBy,
    key: `${url.host}|${pin ?? ''}|${caDigest}`,
  };
}

/** A resolved target with the token released for it. */
export interface HostTarget extends ResolvedTarget {
  token: ReleasedSecret;
}

/**
 * The bearer token for a request to the target: only a token released for this target's origin
 * and variable goes out.
 */
export function bearerToken(target: HostTarget): string {
  const name = target.tokenEnv;
  const { token: secret } = target;
  if (secret.envName !== name || !secret.mayGoTo(target.url)) {
    throw new ScreenHostError(
      'config',
      `the token in ${secret.envName} was released for ${secret.origin}, not for ${name} at ${target.url}`,
    );
  }
  const token = secret.value;
  if (!TOKEN_CHARS.test(token)) {
    throw new ScreenHostError(
      'config',
      `the environment variable ${name} holds characters a bearer token cannot carry (spaces, a line break or non-ASCII)`,
    );
  }
  return token;
}
