/**
 * A real OpenID provider for the sign-in tests: `oidc-provider` with its development login page
 * (any password), on loopback http. Run as its own process:
 *   node -r @swc-node/register test/support/oidc-provider-server.ts
 * with OIDC_TEST_PROVIDER (JSON: {client_id, client_secret, redirect_uris, users}) in its
 * environment. It prints one line `{"issuer": "http://127.0.0.1:PORT"}` when it listens.
 * Claims: `name`, `groups` and `tenant` come with the `profile` scope, `email` with `email`; with
 * the code flow they are in userinfo, not the ID token (the provider's default), as with several
 * real providers.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import Provider from 'oidc-provider';

interface Settings {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  users: Record<string, { name: string; email: string; tenant: string; groups: string[] }>;
}

const settings = JSON.parse(process.env.OIDC_TEST_PROVIDER ?? '') as Settings;

let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
  res.statusCode = 503;
  res.end();
};
const server = createServer((req, res) => handle(req, res));

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: settings.client_id,
        client_secret: settings.client_secret,
        redirect_uris: settings.redirect_uris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: {
      openid: ['sub'],
      profile: ['name', 'groups', 'tenant'],
      email: ['email'],
    },
    findAccount: (_ctx, id) => {
      const user = settings.users[id];
      if (!user) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...user }) };
    },
    // A company's own application: consent is given by the administrator, so none is asked.
    loadExistingGrant: async (ctx) => {
      const oidc = ctx.oidc;
      const grantId =
        oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(oidc.client!.clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({
        clientId: oidc.client!.clientId,
        accountId: oidc.session!.accountId,
      });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['warden-test-only-cookie-key'] },
  });
  const callback = provider.callback();
  handle = (req, res) => void callback(req, res);
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});

process.on('SIGTERM', () => server.close(() => process.exit(0)));
