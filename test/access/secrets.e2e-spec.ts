import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRIES, runEntry } from '../../scripts/lib/processes';
import { createCertificate } from '../../screen-host/src';
import { SecretGrants } from '../../src/secrets/secret-grants.service';
import {
  chatAction,
  chatCompletion,
  FakeProvider,
  startFakeProvider,
} from '../support/fake-provider';
import { TEST_REDIS_URL } from '../support/env';
import { isEnded, SimHost, startSimHost, startStack, Stack } from '../support/stack';
import { until } from '../support/until';

/**
 * Who can send a secret where (docs/screen-host.md), tried the way a hostile tenant admin would: name one of
 * Warden's own variables, a model key with a base_url of their choosing, another tenant's granted
 * token. A local HTTPS listener records every connection and request; it must see no secret, and
 * the control case with a proper grant must see the token. Grants are made with the real CLI.
 */

interface Listener {
  url: string;
  fingerprint: string;
  connections(): number;
  requests: Array<{ method: string; path: string; authorization?: string; raw: string }>;
  close(): Promise<void>;
}

/** An HTTPS server that records everything and answers 503. */
async function startListener(): Promise<Listener> {
  const cert = await createCertificate(mkdtempSync(join(tmpdir(), 'warden-listener-')));
  const requests: Listener['requests'] = [];
  let connections = 0;
  const server: Server = createServer(
    { cert: readFileSync(cert.certPath), key: readFileSync(cert.keyPath) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({
          method: req.method ?? '',
          path: req.url ?? '',
          authorization: req.headers.authorization,
          raw: JSON.stringify(req.headers) + Buffer.concat(chunks).toString('latin1'),
        });
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"message":"recorded"}');
      });
    },
  );
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    fingerprint: cert.fingerprintSha256,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('who can send a secret where', () => {
  let stack: Stack;
  let fake: FakeProvider;
  let listener: Listener;
  const unique = () => randomBytes(4).toString('hex').toUpperCase();
  const keyEnv = `ACME_MODEL_KEY_${unique()}`;
  const cli = (...args: string[]) =>
    runEntry(ENTRIES.cli, args, { DATABASE_URL: stack.api.db.url, REDIS_URL: TEST_REDIS_URL });

  beforeAll(async () => {
    process.env[keyEnv] = `sk-acme-${randomBytes(16).toString('hex')}`;
    fake = await startFakeProvider();
    stack = await startStack();
  });

  beforeEach(async () => {
    listener = await startListener();
  });

  afterEach(async () => {
    await listener.close();
  });

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
    delete process.env[keyEnv];
  });

  /** PUT the sap-orders agent plus `exfil` as given; answers the HTTP result. */
  const put = (exfil: Record<string, unknown>, token = stack.tokens.admin) =>
    stack.api.request('PUT', '/api/admin/computer-use', {
      token,
      json: {
        enabled: true,
        agents: {
          exfil: { system: 'SAP GUI', max_steps: 20, max_seconds: 300, ...exfil },
        },
      },
    });
  const start = (agent = 'exfil', token = stack.tokens.operator) =>
    stack.api.request('POST', '/api/computer-use/runs', { token, json: { agent, goal: 'g' } });
  const audit = async (type: string, token = stack.tokens.auditor) =>
    (await stack.api.request('GET', `/api/audit?type=${type}&limit=200`, { token })).body
      .items as Array<{
      type: string;
      actor: string;
      run_id: string | null;
      details: Record<string, any>;
    }>;
  /** Polls another tenant's run until it ends (stack.waitFor reads as acme). */
  async function waitEnded(id: string, token: string): Promise<any> {
    let last: unknown;
    return until(
      `run ${id} ended`,
      async () => {
        last = (await stack.api.request('GET', `/api/computer-use/runs/${id}`, { token })).body;
        return isEnded(last as { status: string }) && last;
      },
      { ms: 30_000, seen: () => last },
    );
  }
  /** The listener saw nothing at all: no connection, so no secret. */
  const sawNothing = () => {
    expect(listener.connections()).toBe(0);
    expect(listener.requests).toEqual([]);
  };

  it("the CLI refuses Warden's own variables, plain http off loopback, and anything but an origin", async () => {
    for (const env of [
      'DATABASE_URL',
      'REDIS_URL',
      'PGPASSWORD',
      'NODE_OPTIONS',
      'SESSION_SECRET',
    ]) {
      const r = await cli(
        'secrets',
        'grant',
        '--tenant',
        'acme',
        '--env',
        env,
        '--to',
        listener.url,
      );
      expect({ env, code: r.code }).toEqual({ env, code: 1 });
      expect(r.stderr).toMatch(/can never be granted to a tenant/);
    }
    const http = await cli(
      'secrets',
      'grant',
      '--tenant',
      'acme',
      '--env',
      'X_TOKEN',
      '--to',
      'http://hosts.internal:8080',
    );
    expect(http.stderr).toMatch(/plain http:\/\/ is allowed only on loopback/);
    const path = await cli(
      'secrets',
      'grant',
      '--tenant',
      'acme',
      '--env',
      'X_TOKEN',
      '--to',
      `${listener.url}/v1`,
    );
    expect(path.stderr).toMatch(/--to must be an origin/);
    const listed = await cli('secrets', 'list', '--tenant', 'acme');
    expect(listed.stdout).not.toContain('DATABASE_URL');
    expect(listed.stdout).not.toContain('X_TOKEN');
  });

  it('screen_token_env: DATABASE_URL is accepted as config, but no run and no doctor sends it anywhere', async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = stack.api.db.url;
    try {
      const r = await put({
        screen_url: listener.url,
        screen_token_env: 'DATABASE_URL',
        screen_tls: { fingerprint_sha256: listener.fingerprint },
      });
      expect(r.status).toBe(200);
      const run = await start();
      expect(run.status).toBe(409);
      expect(run.body.message).toMatch(
        /DATABASE_URL is one of Warden's own configuration variables/,
      );
      const doctor = await stack.api.request('GET', '/api/admin/agents/exfil/doctor', {
        token: stack.tokens.admin,
      });
      expect(doctor.body.ok).toBe(false);
      expect(
        doctor.body.checks.find((c: { name: string }) => c.name === 'token_grant'),
      ).toMatchObject({
        ok: false,
        next_step: expect.stringMatching(/^name another variable in screen_token_env/),
      });
      const refused = await audit('computer_use.refused');
      expect(refused.at(-1)?.details).toMatchObject({ agent: 'exfil', reason: 'own_variable' });
      sawNothing();
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });

  it('a model key with a base_url of the admin’s choosing is refused without a grant; plain http off loopback at PUT', async () => {
    const anthropic = 'ANTHROPIC_API_KEY';
    const saved = process.env[anthropic];
    process.env[anthropic] = `sk-ant-${randomBytes(16).toString('hex')}`;
    try {
      const planner = { provider: 'anthropic', model: 'claude-sonnet-4-5', api_key_env: anthropic };
      const r = await put({
        screen_url: stack.sim.url,
        screen_token_env: stack.sim.tokenEnv,
        screen_tls: { fingerprint_sha256: stack.sim.fingerprint },
        planner: { ...planner, base_url: listener.url },
      });
      expect(r.status).toBe(200);
      const run = await start();
      expect(run.status).toBe(409);
      expect(run.body.message).toContain(
        `npm run cli -- secrets grant --tenant acme --env ${anthropic} --to ${listener.url}`,
      );
      const plain = await put({
        screen_url: stack.sim.url,
        screen_token_env: stack.sim.tokenEnv,
        planner: { ...planner, base_url: 'http://models.example.internal:8000/v1' },
      });
      expect(plain.status).toBe(400);
      expect(plain.body.message).toMatch(/base_url: plain http:\/\/ is allowed only on loopback/);
      sawNothing();
    } finally {
      if (saved === undefined) delete process.env[anthropic];
      else process.env[anthropic] = saved;
    }
  });

  it("another tenant's granted token, named by this tenant, goes nowhere; with its own grant it goes to the granted host only", async () => {
    const globexEnv = `GLOBEX_HOST_TOKEN_${unique()}`;
    const globexToken = randomBytes(24).toString('hex');
    process.env[globexEnv] = globexToken;
    try {
      const granted = await cli(
        'secrets',
        'grant',
        '--tenant',
        'globex',
        '--env',
        globexEnv,
        '--to',
        listener.url,
      );
      expect(granted.code).toBe(0);
      expect(granted.stdout).toContain(`granted ${globexEnv} to ${listener.url} for tenant globex`);
      const agent = {
        screen_url: listener.url,
        screen_token_env: globexEnv,
        screen_tls: { fingerprint_sha256: listener.fingerprint },
      };
      expect((await put(agent)).status).toBe(200);
      const refused = await start();
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain(`is not granted for ${listener.url} in tenant acme`);
      sawNothing();

      // The control: globex's own agent, granted, sends its token to the listener (and only there).
      const planner = await stack.api.request('POST', '/api/planners/scripted', {
        token: stack.tokens.other,
        json: { name: 'look', script: { steps: [{ action: { action: 'wait', seconds: 0.1 } }] } },
      });
      expect(planner.status).toBe(201);
      expect(
        (await put({ ...agent, planner: planner.body.planner.id }, stack.tokens.other)).status,
      ).toBe(200);
      const run = await start('exfil', stack.tokens.other);
      expect(run.status).toBe(201);
      const ended = await waitEnded(run.body.id, stack.tokens.other);
      expect(ended).toMatchObject({ status: 'failed', end_reason: 'screen_host_error' });
      expect(listener.requests.length).toBeGreaterThan(0);
      expect(listener.requests[0]).toMatchObject({ method: 'GET', path: '/screenshot' });
      expect(listener.requests.every((r) => r.authorization === `Bearer ${globexToken}`)).toBe(
        true,
      );
    } finally {
      delete process.env[globexEnv];
    }
  });

  it('a granted model endpoint that redirects does not carry the key anywhere else', async () => {
    await stack.grant(keyEnv, fake.url);
    fake.reset();
    fake.script([], { status: 307, headers: { location: `${listener.url}/v1/messages` } });
    await stack.sim.reset();
    await stack.configure({
      planner: {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        api_key_env: keyEnv,
        base_url: fake.url,
        history_screens: 0,
      },
    });
    const run = await stack.start('look');
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'model_error' });
    expect(fake.requests.length).toBeGreaterThan(0);
    // The granted endpoint got the key; the origin it redirected to got no connection at all.
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${process.env[keyEnv]}`);
    sawNothing();
  });

  it('a granted model key that disappears from the host mid-run is a model error, not a screen host error', async () => {
    const env = `ACME_VANISHING_KEY_${unique()}`;
    process.env[env] = `sk-${randomBytes(16).toString('hex')}`;
    await stack.grant(env, fake.url);
    fake.reset();
    fake.script([
      async () => {
        delete process.env[env]; // the operator removed it; the next step's call finds it unset
        return chatCompletion(chatAction({ action: 'key', key: 'Tab' }));
      },
    ]);
    await stack.sim.reset();
    await stack.configure({
      planner: {
        provider: 'openai-compatible',
        model: 'local-vlm',
        api_key_env: env,
        base_url: `${fake.url}/v1`,
        history_screens: 0,
      },
    });
    const run = await stack.start('tab');
    const ended = await stack.waitFor(run.id, isEnded);
    expect(ended).toMatchObject({ status: 'failed', end_reason: 'model_error' });
    expect(ended.summary).toContain(`${env} is not set on the Warden host`);
    expect(fake.requests).toHaveLength(1);
  });

  it('a model key whose grant is revoked mid-run stops the run not_granted, asking the model nothing more', async () => {
    const env = `ACME_REVOKED_KEY_${unique()}`;
    process.env[env] = `sk-${randomBytes(16).toString('hex')}`;
    try {
      await stack.grant(env, fake.url);
      fake.reset();
      fake.script([
        async () => {
          await stack.api.app.get(SecretGrants).revoke('acme', env, fake.url, 'os:test');
          return chatCompletion(chatAction({ action: 'key', key: 'Tab' }));
        },
      ]);
      await stack.sim.reset();
      await stack.configure({
        planner: {
          provider: 'openai-compatible',
          model: 'local-vlm',
          api_key_env: env,
          base_url: `${fake.url}/v1`,
          history_screens: 0,
        },
      });
      const run = await stack.start('tab');
      const ended = await stack.waitFor(run.id, isEnded);
      expect(ended).toMatchObject({ status: 'stopped', end_reason: 'not_granted' });
      expect(ended.summary).toContain(`${env} is not granted for ${new URL(fake.url).origin}`);
      expect(fake.requests).toHaveLength(1);
    } finally {
      delete process.env[env];
    }
  });

  it('grants and revocations are audited in the tenant’s chain as the operator’s OS user', async () => {
    const env = `ACME_AUDITED_${unique()}`;
    expect(
      (await cli('secrets', 'grant', '--tenant', 'acme', '--env', env, '--to', listener.url)).code,
    ).toBe(0);
    const revoked = await cli(
      'secrets',
      'revoke',
      '--tenant',
      'acme',
      '--env',
      env,
      '--to',
      listener.url,
    );
    expect(revoked.code).toBe(0);
    const again = await cli(
      'secrets',
      'revoke',
      '--tenant',
      'acme',
      '--env',
      env,
      '--to',
      listener.url,
    );
    expect(again.code).toBe(1);
    const events = (await audit('secret.')).filter((e) => e.details.env === env);
    expect(events.map((e) => e.type)).toEqual(['secret.granted', 'secret.revoked']);
    for (const e of events) {
      expect(e.actor).toMatch(/^os:\S+$/);
      expect(e.details).toEqual({ env, to: listener.url });
    }
    const verify = await stack.api.request('GET', '/api/audit/verify', {
      token: stack.tokens.auditor,
    });
    expect(verify.body).toMatchObject({ ok: true });
    // globex sees none of acme's grants.
    expect((await audit('secret.', undefined)).length).toBeGreaterThan(0);
    const other = await stack.api.request('GET', '/api/audit?type=secret.&limit=200', {
      token: stack.tokens.other,
    });
    expect(
      other.body.items.filter((e: { details: { env: string } }) => e.details.env === env),
    ).toEqual([]);
  });

  it('screen_tls.ca_file outside CA_DIR is a 400', async () => {
    const r = await put({
      screen_url: stack.sim.url,
      screen_token_env: stack.sim.tokenEnv,
      screen_tls: { ca_file: '/etc/passwd' },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(
      /agents\.exfil\.screen_tls\.ca_file needs the deployment to set CA_DIR/,
    );
  });

  describe('a grant revoked while a run goes on', () => {
    let sim: SimHost;

    beforeEach(async () => {
      sim = await startSimHost();
      await stack.grant(sim.tokenEnv, sim.url);
      fake.reset();
    });

    afterEach(async () => {
      await sim.close();
    });

    const grants = () => stack.api.app.get(SecretGrants);
    const revoke = () => grants().revoke('acme', sim.tokenEnv, sim.url, 'os:test');
    const performed = async () => (await sim.events()).filter((e) => e.type === 'action');

    it('stops the run not_granted in the transaction that would have sent the action', async () => {
      await stack.grant(keyEnv, fake.url);
      fake.script([
        async () => {
          // While the model thinks, the operator revokes the host token's grant.
          await revoke();
          return chatCompletion(chatAction({ action: 'key', key: 'Tab' }));
        },
      ]);
      await stack.configure({
        screen_url: sim.url,
        screen_token_env: sim.tokenEnv,
        screen_tls: { fingerprint_sha256: sim.fingerprint },
        planner: {
          provider: 'openai-compatible',
          model: 'local-vlm',
          api_key_env: keyEnv,
          base_url: `${fake.url}/v1`,
          history_screens: 0,
        },
      });
      const run = await stack.start('press Tab');
      const ended = await stack.waitFor(run.id, isEnded);
      expect(ended).toMatchObject({ status: 'stopped', end_reason: 'not_granted' });
      expect(ended.steps[0]).toMatchObject({ classification: 'read', outcome: 'refused' });
      expect(await performed()).toEqual([]);
    });

    it('an agent moved to an origin its token is not granted for stops not_granted, sending nothing there', async () => {
      const other = await startSimHost();
      try {
        const planner = await stack.planner({
          steps: [
            { action: { action: 'key', key: 'Tab' } },
            { action: { action: 'type', text: 'VA02' } },
          ],
        });
        const agent = {
          screen_url: sim.url,
          screen_token_env: sim.tokenEnv,
          screen_tls: { fingerprint_sha256: sim.fingerprint },
          planner,
        };
        await stack.configure(agent);
        const run = await stack.start('tab, then type');
        await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval');
        // While the write waits, the admin repoints the agent at another host; the token is
        // granted only for the first. The approved write's resume works on the config in force.
        await stack.configure({
          ...agent,
          screen_url: other.url,
          screen_tls: { fingerprint_sha256: other.fingerprint },
        });
        await stack.approveAndResume(run.id);
        const ended = await stack.waitFor(run.id, isEnded);
        expect(ended).toMatchObject({ status: 'stopped', end_reason: 'not_granted' });
        expect(ended.summary).toContain(`is not granted for ${new URL(other.url).origin}`);
        expect(await other.events()).toEqual([]);
        expect((await performed()).length).toBe(1);
      } finally {
        await other.close();
      }
    });

    it('an approved write is not sent after its host token’s grant is revoked', async () => {
      await stack.configure({
        screen_url: sim.url,
        screen_token_env: sim.tokenEnv,
        screen_tls: { fingerprint_sha256: sim.fingerprint },
        planner: await stack.planner({ steps: [{ action: { action: 'type', text: 'VA02' } }] }),
      });
      const run = await stack.start('type VA02');
      await stack.waitFor(run.id, (r) => r.status === 'awaiting_approval');
      await revoke();
      await stack.approveAndResume(run.id);
      const ended = await stack.waitFor(run.id, isEnded);
      expect(ended).toMatchObject({ status: 'stopped', end_reason: 'not_granted' });
      expect(await performed()).toEqual([]);
      // The write was held (audited), never sent (no computer_use.write of this run).
      const events = (await audit('computer_use.')).filter(
        (e) => e.run_id === run.id && e.type.startsWith('computer_use.write'),
      );
      expect(events.map((e) => e.type)).toEqual(['computer_use.write.held']);
    });
  });
});
