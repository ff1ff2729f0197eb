import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Slack's request signature (docs/notifications.md): `X-Slack-Signature: v0=<hex>` is the
 * HMAC-SHA256, keyed with the Slack app's signing secret, of `v0:{timestamp}:{raw body}`, where
 * `X-Slack-Request-Timestamp` is Unix seconds. Checked over the body's bytes as they arrived
 * (never a re-encoding of the parsed form), in constant time, and refused outside five minutes
 * either way, so a recorded request cannot be sent again later. Pure.
 */

export const SLACK_SIGNATURE_HEADER = 'x-slack-signature';
export const SLACK_TIMESTAMP_HEADER = 'x-slack-request-timestamp';
export const SLACK_MAX_AGE_SECONDS = 300;

export function slackSignature(secret: string, timestamp: string, rawBody: Buffer): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`v0:${timestamp}:`);
  hmac.update(rawBody);
  return `v0=${hmac.digest('hex')}`;
}

export type SlackVerdict = { ok: true } | { ok: false; reason: 'unsigned' | 'stale' | 'forged' };

/**
 * Whether one of `secrets` (the signing secrets of the agent's Slack channels) signed the request,
 * at most SLACK_MAX_AGE_SECONDS from now. No secret: nothing can be verified, so it is forged.
 */
export function verifySlackRequest(input: {
  secrets: readonly string[];
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: Buffer;
  nowSeconds: number;
}): SlackVerdict {
  const { timestamp, signature } = input;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) {
    return { ok: false, reason: 'unsigned' };
  }
  const m = /^v0=([0-9a-f]{64})$/.exec(signature);
  if (!m) return { ok: false, reason: 'unsigned' };
  if (Math.abs(input.nowSeconds - Number(timestamp)) > SLACK_MAX_AGE_SECONDS) {
    return { ok: false, reason: 'stale' };
  }
  const given = Buffer.from(m[1], 'hex');
  let matched = false;
  // Every secret is tried, so the time taken does not say which one matched.
  for (const secret of input.secrets) {
    const expected = Buffer.from(slackSignature(secret, timestamp, input.rawBody).slice(3), 'hex');
    if (timingSafeEqual(expected, given)) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: 'forged' };
}
