import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { slackSignature } from '../../src/chat/slack-signature';
import recorded from './fixtures/slack-block-actions.json';

/**
 * Chat requests as Slack and Teams send them, for the e2e tests of deciding in chat: a Slack press
 * built from a recorded block_actions payload (Slack's documented shape, fixtures/), signed the
 * way Slack signs it; and a local Bot Framework issuer (OpenID metadata and JWKS on loopback)
 * whose tokens a Teams invoke carries.
 */

export interface SlackPressOptions {
  verb: 'approve' | 'reject';
  /** The button's value as the message carried it (JSON of the approval and its screen). */
  value: string;
  user: string;
  team?: string;
  name?: string;
  responseUrl: string;
  /** The message's blocks as Slack shows them (what Warden posted). */
  blocks?: unknown[];
}

/** The form body Slack posts when someone presses a button of a Warden message. */
export function slackPressBody(o: SlackPressOptions): Buffer {
  const payload = structuredClone(recorded) as any;
  payload.user = {
    ...payload.user,
    id: o.user,
    username: o.name ?? o.user,
    name: o.name ?? o.user,
  };
  payload.team = { ...payload.team, id: o.team ?? 'T0ACME' };
  payload.user.team_id = o.team ?? 'T0ACME';
  payload.response_url = o.responseUrl;
  payload.message.blocks = o.blocks ?? [];
  payload.actions[0] = {
    ...payload.actions[0],
    action_id: `warden.${o.verb}`,
    text: { type: 'plain_text', text: o.verb === 'approve' ? 'Approve' : 'Reject', emoji: true },
    value: o.value,
    action_ts: `${Math.floor(Date.now() / 1000)}.${randomBytes(3).readUIntBE(0, 3)}`,
  };
  return Buffer.from(new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
}

/** Slack's headers for `body`: signed with `secret` at `timestamp` (Unix seconds, default now). */
export function slackHeaders(
  secret: string,
  body: Buffer,
  timestamp = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const ts = String(timestamp);
  return {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': ts,
    'x-slack-signature': slackSignature(secret, ts, body),
  };
}

export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';

export interface BotIssuer {
  /** TEAMS_BOT_OPENID_METADATA_URL for Warden. */
  metadataUrl: string;
  /** A token as the Bot Framework sends it; `claims` and `key` change it (a forgery, an expiry). */
  token(o: {
    audience: string;
    serviceUrl: string;
    issuer?: string;
    expiresIn?: string | number;
    key?: 'trusted' | 'stranger';
  }): Promise<string>;
  close(): Promise<void>;
}

/**
 * A local issuer like login.botframework.com: its metadata names its JWKS, whose one key is
 * endorsed for `msteams`; `stranger` signs with a key it does not publish (a forgery).
 */
export async function startBotIssuer(): Promise<BotIssuer> {
  const trusted = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  const kid = `key-${randomUUID()}`;
  const jwk = { ...(await exportJWK(trusted.publicKey)), kid, use: 'sig', alg: 'RS256' };
  const server: Server = createServer((req, res) => {
    const { port } = server.address() as AddressInfo;
    if (req.url === '/v1/.well-known/openidconfiguration') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          issuer: BOT_FRAMEWORK_ISSUER,
          jwks_uri: `http://127.0.0.1:${port}/v1/.well-known/keys`,
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
      return;
    }
    if (req.url === '/v1/.well-known/keys') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [{ ...jwk, endorsements: ['msteams'] }] }));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const sign = (key: CryptoKey, o: Parameters<BotIssuer['token']>[0]) =>
    new SignJWT({ serviceurl: o.serviceUrl })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(o.issuer ?? BOT_FRAMEWORK_ISSUER)
      .setAudience(o.audience)
      .setIssuedAt()
      .setNotBefore('0s')
      .setExpirationTime(o.expiresIn ?? '1h')
      .sign(key);
  return {
    metadataUrl: `http://127.0.0.1:${port}/v1/.well-known/openidconfiguration`,
    token: (o) => sign(o.key === 'stranger' ? stranger.privateKey : trusted.privateKey, o),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An `adaptiveCard/action` invoke for a card's button, as Teams sends it to the bot endpoint. */
export function teamsInvoke(o: {
  verb: 'approve' | 'reject';
  data: unknown;
  aadObjectId: string;
  name: string;
  serviceUrl: string;
  tenantId?: string;
  activityId?: string;
}): Record<string, unknown> {
  const tenantId = o.tenantId ?? '72f988bf-86f1-41af-91ab-2d7cd011db47';
  return {
    type: 'invoke',
    name: 'adaptiveCard/action',
    id: o.activityId ?? `f:${randomUUID()}`,
    timestamp: new Date().toISOString(),
    serviceUrl: o.serviceUrl,
    channelId: 'msteams',
    from: { id: `29:${randomBytes(8).toString('hex')}`, name: o.name, aadObjectId: o.aadObjectId },
    conversation: { id: '19:sap-approvals@thread.tacv2', tenantId },
    recipient: { id: '28:warden-bot', name: 'Warden' },
    channelData: { tenant: { id: tenantId } },
    value: {
      action: { type: 'Action.Execute', verb: o.verb, data: o.data },
      trigger: 'manual',
    },
  };
}
