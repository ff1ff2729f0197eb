import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed webhooks (docs/security.md): `X-Warden-Signature: sha256=<hex>` is the HMAC-SHA256, keyed with the
 * channel's secret, of `${timestamp}.${body}`, where `X-Warden-Timestamp` is Unix seconds. A
 * receiver recomputes it over the raw body and refuses a timestamp older than five minutes, so a
 * recorded delivery cannot be replayed later. docs/notifications.md shows a receiver.
 */

export const SIGNATURE_HEADER = 'x-warden-signature';
export const TIMESTAMP_HEADER = 'x-warden-timestamp';
export const REPLAY_WINDOW_SECONDS = 300;

export function signWebhook(secret: string, timestamp: number | string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export type Verdict = { ok: true } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

/** What a receiver does with a delivery: the signature and the timestamp's age, checked. */
export function verifyWebhook(input: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: string;
  nowSeconds: number;
  windowSeconds?: number;
}): Verdict {
  const { secret, timestamp, signature, body, nowSeconds } = input;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) {
    return { ok: false, reason: 'malformed' };
  }
  const m = /^sha256=([0-9a-f]{64})$/.exec(signature);
  if (!m) return { ok: false, reason: 'malformed' };
  const age = nowSeconds - Number(timestamp);
  if (Math.abs(age) > (input.windowSeconds ?? REPLAY_WINDOW_SECONDS)) {
    return { ok: false, reason: 'stale' };
  }
  const expected = Buffer.from(signWebhook(secret, timestamp, body).slice(7), 'hex');
  const given = Buffer.from(m[1], 'hex');
  return timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
