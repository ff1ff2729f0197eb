import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRIES, runEntry } from '../../scripts/lib/processes';
import { Destinations } from '../../src/destinations/destinations.service';
import { startApi, type TestApi } from '../support/api';
import { TEST_REDIS_URL } from '../support/env';
import {
  chatAction,
  chatCompletion,
  type FakeProvider,
  startFakeProvider,
} from '../support/fake-provider';
import {
  expectNoConnection,
  type RecordingListener,
  startRecordingListener,
} from '../support/recording-listener';
import {
  type MailReceiver,
  type Receiver,
  startMailReceiver,
  startReceiver,
} from '../support/receivers';
import {
  type HecReceiver,
  makePki,
  type Rsyslog,
  startHec,
  startRsyslog,
  type TestPki,
} from '../support/siem-receivers';
import { isEnded, startStack, type Stack } from '../support/stack';
import { until } from '../support/until';

/**
 * Every connection granted (docs/security.md "Destinations"), tried as a tenant admin who would map the
 * deployment's network: audit sinks, notification channels, model endpoints (the deployment's
 * default model too) and screen hosts pointed at origins nobody granted. Listeners that record
 * every connection they accept must see none, and what the admin reads back names the missing
 * grant, never whether something listens there. Granted with the real CLI, the same destinations
 * work.
 */

/** What a failed connection says about the network: none of it may reach an ungranted status. */
const NETWORK_DETAIL =
  /ECONN|EPIPE|ETIMEDOUT|EHOST|ENETUNREACH|ENOTFOUND|EAI_AGAIN|timeout|timed out|closed|refused|CERT|SSL|TLS|EPROTO|HTTP \d/;

describe('every connection granted', () => {
  let stack: Stack;
  let fake: FakeProvider;
  /** The endpoint of the deployment's other model planner (MODEL_PLANNERS). */
  let plannerFake: FakeProvider;
  let mail: MailReceiver;
  let receiver: Receiver;
  let listener: RecordingListener;
  let pki: TestPki;
  let rsyslog: Rsyslog;
  let hec: HecReceiver;
  const caDir = mkdtempSync(join(tmpdir(), 'warden-destinations-ca-'));
  const unique = () => randomBytes(4).toString('hex').toUpperCase();
  const defaultKeyEnv = `WARDEN_TEST_DEFAULT_MODEL_KEY_${unique()}`;
  const hookSecretEnv = `ACME_HOOK_SECRET_${unique()}`;
  const slackEnv = `ACME_SLACK_URL_${unique()}`;
  const teamsEnv = `ACME_TEAMS_URL_${unique()}`;
  const hecTokenEnv = `ACME_HEC_TOKEN_${unique()}`;
  const modelKeyEnv = `ACME_MODEL_KEY_${unique()}`;
  const plannerKeyEnv = `WARDEN_TEST_PLANNER_KEY_${unique()}`;
  /** A MODEL_PLANNERS planner public to every tenant: its key the deployment's own. */
  const LAB = 'lab-vlm-2-normal';
  const hookSecret = randomBytes(24).toString('hex');
  const hecToken = randomBytes(16).toString('hex');
  /** The deployment's settings the CLI needs to know `--to default-model` and `--to smtp`. */
  let deploymentEnv: Record<string, string>;

  const cli = (...args: string[]) =>
    runEntry(ENTRIES.cli, args, {
      DATABASE_URL: stack.api.db.url,
      REDIS_URL: TEST_REDIS_URL,
      ...deploymentEnv,
    });
  const cliOk = async (...args: string[]) => {
    const r = await cli(...args);
    if (r.code !== 0) throw new Error(`cli ${args.join(' ')}: ${r.code} ${r.stdout} ${r.stderr}`);
    return r;
  };
  /** The operator's `destinations <command> --tenant acme --to <to>`, which must succeed. */
  const destinations = (command: 'grant' | 'revoke', to: string, ...more: string[]) =>
    cliOk('destinations', command, '--tenant', 'acme', '--to', to, ...more);
  const audit = async (type: string) =>
    (
      await stack.api.request('GET', `/api/audit?type=${type}&limit=200`, {
        token: stack.tokens.auditor,
      })
    ).body.items as Array<{ type: string; actor: string; details: Record<string, any> }>;
  /** Polls as the sinks and deliveries need: up to 20 s. */
  const within20s = <T>(what: string, probe: () => Promise<T | undefined>) =>
    until(what, probe, 20_000);

  beforeAll(async () => {
    process.env[defaultKeyEnv] = `sk-default-${randomBytes(16).toString('hex')}`;
    process.env[modelKeyEnv] = `sk-acme-${randomBytes(16).toString('hex')}`;
    process.env[plannerKeyEnv] = `sk-planner-${randomBytes(16).toString('hex')}`;
    process.env[hecTokenEnv] = hecToken;
    fake = await startFakeProvider();
    plannerFake = await startFakeProvider();
    mail = await startMailReceiver();
    receiver = await startReceiver(() => hookSecret);
    pki = makePki(caDir);
    rsyslog = await startRsyslog(mkdtempSync(join(tmpdir(), 'warden-destinations-rsyslog-')), pki);
    hec = await startHec(pki, hecToken);
    process.env[hookSecretEnv] = hookSecret;
    deploymentEnv = {
      SMTP_URL: mail.url,
      SMTP_FROM: 'Warden <warden@example.test>',
      DEFAULT_MODEL_PROVIDER: 'openai-compatible',
      DEFAULT_MODEL: 'local-vlm',
      DEFAULT_MODEL_API_KEY_ENV: defaultKeyEnv,
      DEFAULT_MODEL_BASE_URL: `${fake.url}/v1`,
      MODEL_PLANNERS: JSON.stringify([
        {
          id: LAB,
          provider: 'openai-compatible',
          model: 'lab-vlm',
          api_key_env: plannerKeyEnv,
          base_url: `${plannerFake.url}/v1`,
          public: true,
        },
      ]),
    };
    stack = await startStack({
      deploymentUngranted: true,
      env: {
        ...deploymentEnv,
        CA_DIR: caDir,
        NOTIFY_CA_FILE: receiver.certPath,
        NOTIFY_BACKOFF_MS: '100',
        NOTIFY_TIMEOUT_MS: '2000',
        PUBLIC_URL: 'https://warden.example.test',
        AUDIT_SINK_INTERVAL_MS: '100',
        AUDIT_SINK_BACKOFF_MAX_MS: '400',
        AUDIT_SINK_TIMEOUT_MS: '2000',
      },
    });
  });

  beforeEach(async () => {
    listener = await startRecordingListener();
    fake.reset();
    plannerFake.reset();
  });

  afterEach(async () => {
    await listener.close();
  });

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
    await plannerFake?.close();
    await mail?.close();
    await receiver?.close();
    await rsyslog?.stop();
    await hec?.close();
    for (const env of [
      defaultKeyEnv,
      modelKeyEnv,
      plannerKeyEnv,
      hecTokenEnv,
      hookSecretEnv,
      slackEnv,
      teamsEnv,
    ]) {
      delete process.env[env];
    }
  });

  it('the CLI grants, lists and revokes destinations, audited in the tenant’s chain as the operator', async () => {
    for (const [to, problem] of [
      ['http://siem.internal:8088', /only on loopback/],
      ['https://siem.internal:8088/services', /is not an origin/],
      ['tls://siem.internal', /tls:\/\/ needs a port/],
      ['ftp://siem.internal', /is not an origin Warden connects to/],
    ] as const) {
      const r = await cli('destinations', 'grant', '--tenant', 'acme', '--to', to);
      expect({ to, code: r.code }).toEqual({ to, code: 1 });
      expect(r.stderr).toMatch(problem);
    }
    const granted = await destinations(
      'grant',
      'TLS://SIEM.internal:6514/',
      '--note',
      'the SOC collector',
    );
    expect(granted.stdout).toContain('granted tls://siem.internal:6514 for tenant acme');
    const listed = await cliOk('destinations', 'list', '--tenant', 'acme');
    expect(listed.stdout).toContain('tls://siem.internal:6514');
    expect(listed.stdout).toContain('the SOC collector');
    // The sim's token grant grants the sim's origin: listed as such.
    expect(listed.stdout).toContain(`secret grant of ${stack.sim.tokenEnv}`);
    expect((await cli('destinations', 'list', '--tenant', 'globex')).stdout).toContain(
      'no destinations granted',
    );
    await destinations('revoke', 'tls://siem.internal:6514');
    expect(
      (await cli('destinations', 'revoke', '--tenant', 'acme', '--to', 'tls://siem.internal:6514'))
        .code,
    ).toBe(1);
    // An origin a secret grant grants stays granted until that grant is revoked.
    const sim = new URL(stack.sim.url).origin;
    const stays = await cli('destinations', 'revoke', '--tenant', 'acme', '--to', sim);
    expect(stays.code).toBe(1);
    expect(stays.stderr).toContain(
      `${sim} stays granted for tenant acme by the secret grants of ${stack.sim.tokenEnv}`,
    );

    const events = (await audit('destination.')).filter(
      (e) => e.details.to === 'tls://siem.internal:6514',
    );
    expect(events.map((e) => [e.type, e.details])).toEqual([
      ['destination.granted', { to: 'tls://siem.internal:6514', note: 'the SOC collector' }],
      ['destination.revoked', { to: 'tls://siem.internal:6514' }],
    ]);
    for (const e of events) expect(e.actor).toMatch(/^os:\S+$/);
    const verify = await stack.api.request('GET', '/api/audit/verify', {
      token: stack.tokens.auditor,
    });
    expect(verify.body).toMatchObject({ ok: true });
  });

  describe('audit sinks', () => {
    const sinks = async () =>
      (await stack.api.request('GET', '/api/admin/audit-sinks', { token: stack.tokens.admin })).body
        .sinks as Array<{ name: string; status: Record<string, any> }>;
    const put = (list: unknown[]) =>
      stack.api.request('PUT', '/api/admin/audit-sinks', {
        token: stack.tokens.admin,
        json: { sinks: list },
      });
    /** Each sink's last error as the shipper stored it, once every sink has been tried. */
    const tried = (names: string[]) =>
      within20s('every sink tried', async () => {
        const rows = await stack.api.db.sql<{ name: string; last_error: string | null }>(
          `SELECT name, last_error FROM audit_sinks WHERE tenant = 'acme' AND last_error_at IS NOT NULL`,
        );
        return names.every((n) => rows.some((r) => r.name === n))
          ? Object.fromEntries(rows.map((r) => [r.name, r.last_error]))
          : undefined;
      });

    afterEach(async () => {
      expect((await put([])).status).toBe(200);
    });

    it('syslog sinks at ungranted ports connect nowhere and say which grant is missing, never what listens there', async () => {
      const ports = { listener: listener.port, postgres: 5432, redis: 6379, one: 1 };
      const sim = Number(new URL(stack.sim.url).port);
      const targets = { ...ports, sim };
      const r = await put(
        Object.entries(targets).map(([name, port]) => ({
          name,
          kind: 'syslog',
          host: '127.0.0.1',
          port,
        })),
      );
      expect(r.status).toBe(200);
      // The answer to the PUT already names the missing grants.
      for (const sink of r.body.sinks) {
        expect(sink.status.missing_grant).toBe(
          `npm run cli -- destinations grant --tenant acme --to tls://127.0.0.1:${sink.port}`,
        );
      }
      const stored = await tried(Object.keys(targets));
      for (const [name, port] of Object.entries(targets)) {
        expect(stored[name]).toBe(
          `not_granted: the syslog sink "${name}" at tls://127.0.0.1:${port} is not granted for tenant acme: Warden connects there on this tenant's behalf once the deployment operator adds the grant with \`npm run cli -- destinations grant --tenant acme --to tls://127.0.0.1:${port}\``,
        );
      }
      for (const sink of await sinks()) {
        expect(sink.status.last_error).toMatch(/^not_granted: /);
        expect(sink.status.last_error.replace(/`[^`]*`/g, '')).not.toMatch(NETWORK_DETAIL);
      }
      expectNoConnection({ listener });

      // Granted, the listener is contacted, and what went wrong there is the admin's to see.
      await destinations('grant', listener.tls);
      await within20s('the listener is contacted', async () =>
        listener.connections() > 0 ? true : undefined,
      );
      const shown = await within20s('the failure shows', async () => {
        const sink = (await sinks()).find((s) => s.name === 'listener')!;
        return sink.status.last_error && !sink.status.last_error.startsWith('not_granted')
          ? sink.status
          : undefined;
      });
      expect(shown.missing_grant).toBeNull();
      expect(shown.last_error).toMatch(NETWORK_DETAIL);
      // A grant revoked: nothing more is sent there, and what a try found before is not shown.
      await destinations('revoke', listener.tls);
      const hidden = (await sinks()).find((s) => s.name === 'listener')!.status;
      expect(hidden.last_error).toMatch(/^not_granted: /);
      expect(hidden.missing_grant).toContain(`--to ${listener.tls}`);
    });

    it('a granted syslog sink gets the chain', async () => {
      await destinations('grant', `tls://127.0.0.1:${rsyslog.port}`);
      const r = await put([
        {
          name: 'rsyslog',
          kind: 'syslog',
          host: '127.0.0.1',
          port: rsyslog.port,
          ca_file: pki.caPath,
        },
      ]);
      expect(r.body.sinks[0].status.missing_grant).toBeNull();
      const head = Number(
        (
          await stack.api.db.sql<{ seq: string }>(
            `SELECT max(seq) AS seq FROM audit_events WHERE tenant = 'acme'`,
          )
        )[0].seq,
      );
      await within20s('rsyslog has the chain', async () =>
        rsyslog.lines().length >= head ? true : undefined,
      );
      expect(rsyslog.lines()[0]).toMatch(/\[warden@32473 tenant="acme" .* seq="1" /);
    });

    it('a HEC sink whose token is not granted connects nowhere; granted, it posts', async () => {
      const r = await put([
        { name: 'splunk', kind: 'splunk_hec', url: listener.https, token_env: hecTokenEnv },
      ]);
      expect(r.body.sinks[0].status.missing_grant).toBe(
        `npm run cli -- secrets grant --tenant acme --env ${hecTokenEnv} --to ${listener.https}`,
      );
      expect((await tried(['splunk'])).splunk).toMatch(/^not_granted: /);
      expectNoConnection({ listener });

      await cliOk('secrets', 'grant', '--tenant', 'acme', '--env', hecTokenEnv, '--to', hec.url);
      await put([
        {
          name: 'splunk',
          kind: 'splunk_hec',
          url: hec.url,
          token_env: hecTokenEnv,
          ca_file: pki.caPath,
        },
      ]);
      await within20s('HEC has events', async () => (hec.events.length > 0 ? true : undefined));
      expect(hec.refused).toEqual([]);
      expectNoConnection({ listener });
    });
  });

  describe('notification channels', () => {
    const deliveriesOf = async (runId: string) =>
      (
        await stack.api.request('GET', `/api/admin/deliveries?run_id=${runId}`, {
          token: stack.tokens.admin,
        })
      ).body.items as Array<{
        channel: { kind: string; to: string };
        status: string;
        last_error: string | null;
      }>;
    /** A run that ends at once, and its run_ended deliveries once none is pending. */
    const endedDeliveries = async (notify: unknown[], count: number) => {
      await stack.configure({
        planner: await stack.planner({ steps: [{ action: { action: 'done', summary: 'ok' } }] }),
        notify,
      });
      const run = await stack.start('nothing to do');
      await stack.waitFor(run.id, isEnded);
      return within20s('the deliveries settle', async () => {
        const list = await deliveriesOf(run.id);
        return list.length === count && list.every((d) => d.status !== 'pending')
          ? list
          : undefined;
      });
    };

    it('webhook, Slack and Teams at ungranted origins are not contacted; granted, they are delivered', async () => {
      process.env[slackEnv] = `${listener.https}/services/T000/B000/x`;
      process.env[teamsEnv] = `${listener.https}/workflows/x`;
      const refused = await endedDeliveries(
        [
          { kind: 'webhook', url: `${listener.https}/hook`, secret_env: hookSecretEnv },
          { kind: 'slack', url_env: slackEnv },
          { kind: 'teams', url_env: teamsEnv },
        ],
        3,
      );
      for (const d of refused) {
        expect(d.status).toBe('not_granted');
        expect(d.last_error).toContain(`secrets grant --tenant acme --env `);
        expect(d.last_error).toContain(`--to ${listener.https}`);
      }
      expectNoConnection({ listener });

      process.env[slackEnv] = `${receiver.url}/slack/T000/B000/${unique()}`;
      process.env[teamsEnv] = `${receiver.url}/teams/workflows/${unique()}`;
      for (const env of [hookSecretEnv, slackEnv, teamsEnv]) {
        await cliOk('secrets', 'grant', '--tenant', 'acme', '--env', env, '--to', receiver.url);
      }
      const delivered = await endedDeliveries(
        [
          { kind: 'webhook', url: `${receiver.url}/hook/ended`, secret_env: hookSecretEnv },
          { kind: 'slack', url_env: slackEnv },
          { kind: 'teams', url_env: teamsEnv },
        ],
        3,
      );
      expect(delivered.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
      expect(receiver.on('/hook/ended')[0].verdict).toEqual({ ok: true });
      expectNoConnection({ listener });
    });

    it("e-mail goes to the deployment's SMTP server only once the tenant is granted it", async () => {
      const [refused] = await endedDeliveries([{ kind: 'email', to: ['ops@example.test'] }], 1);
      expect(refused.status).toBe('not_granted');
      expect(refused.last_error).toBe(
        "not_granted: e-mail goes to the deployment's SMTP server, which is not granted for tenant acme: Warden connects there on this tenant's behalf once the deployment operator adds the grant with `npm run cli -- destinations grant --tenant acme --to smtp`",
      );
      // The SMTP server's address is the deployment's, not the tenant admin's to learn.
      expect(refused.last_error).not.toContain(String(new URL(mail.url).port));
      expectNoConnection({ 'the SMTP server': mail });

      const granted = await destinations('grant', 'smtp');
      expect(granted.stdout).toContain(`granted ${mail.url} for tenant acme`);
      const [sent] = await endedDeliveries([{ kind: 'email', to: ['ops@example.test'] }], 1);
      expect(sent.status).toBe('delivered');
      expect(mail.mails.map((m) => m.envelopeTo)).toEqual([['ops@example.test']]);
    });
  });

  describe('model endpoints', () => {
    const startWith = (planner?: string | Record<string, unknown>) =>
      stack.configure(planner ? { planner } : {}).then(() =>
        stack.api.request('POST', '/api/computer-use/runs', {
          token: stack.tokens.operator,
          json: { agent: 'sap-orders', goal: 'press Tab' },
        }),
      );

    it('a base_url of the admin’s choosing, not granted: the run is refused and nothing connects there', async () => {
      const r = await startWith({
        provider: 'openai-compatible',
        model: 'probe',
        api_key_env: modelKeyEnv,
        base_url: `${listener.https}/v1`,
      });
      expect(r.status).toBe(409);
      expect(r.body.message).toContain(
        `secrets grant --tenant acme --env ${modelKeyEnv} --to ${listener.https}`,
      );
      expectNoConnection({ listener });
    });

    it("a secret grant of the tenant's own key for the default model's endpoint does not grant the default model", async () => {
      // The normal way to bring one's own key (docs/operations.md): the tenant's key, granted for
      // the very endpoint the deployment's default model lives at.
      await cliOk('secrets', 'grant', '--tenant', 'acme', '--env', modelKeyEnv, '--to', fake.url);
      try {
        const r = await startWith();
        expect(r.status).toBe(409);
        expect(r.body.message).toContain(
          "goes to the deployment's default model, which is not granted for tenant acme",
        );
        expect(r.body.message).toContain(
          '`npm run cli -- destinations grant --tenant acme --to default-model`',
        );
        expectNoConnection({ 'the default model': fake });
        const listed = await cliOk('destinations', 'list', '--tenant', 'acme');
        expect(listed.stdout).toContain(
          `secret grant of ${modelKeyEnv} (only ${modelKeyEnv} may go there: not the deployment's default model)`,
        );
      } finally {
        await cliOk(
          'secrets',
          'revoke',
          '--tenant',
          'acme',
          '--env',
          modelKeyEnv,
          '--to',
          fake.url,
        );
      }
    });

    it("a MODEL_PLANNERS planner: a secret grant of its endpoint does not grant it; the operator's destination grant does", async () => {
      // The tenant's own key granted for the very endpoint one of the deployment's other model
      // planners lives at: that key may go there, the deployment's planner key may not.
      await cliOk(
        'secrets',
        'grant',
        '--tenant',
        'acme',
        '--env',
        modelKeyEnv,
        '--to',
        plannerFake.url,
      );
      const asModel = {
        provider: 'openai-compatible',
        model: 'lab-vlm',
        api_key_env: plannerKeyEnv,
        base_url: `${plannerFake.url}/v1`,
      };
      try {
        // By id, and as its exact model (the same planner, docs/planners.md).
        for (const planner of [LAB, asModel]) {
          const r = await startWith(planner);
          expect(r.status).toBe(409);
          expect(r.body.message).toContain(
            `goes to the deployment's model planner ${LAB}, which is not granted for tenant acme`,
          );
          expect(r.body.message).toContain(
            `\`npm run cli -- destinations grant --tenant acme --to ${LAB}\``,
          );
          expect(r.body.message).not.toContain(new URL(plannerFake.url).port);
        }
        expectNoConnection({ 'the planner': plannerFake });
        const listed = await cliOk('destinations', 'list', '--tenant', 'acme');
        expect(listed.stdout).toContain(
          `secret grant of ${modelKeyEnv} (only ${modelKeyEnv} may go there: not the deployment's model planner ${LAB})`,
        );

        // The operator's grant, by the planner's id: its endpoint, then used with its key.
        const granted = await destinations('grant', LAB);
        expect(granted.stdout).toContain(`granted ${plannerFake.url} for tenant acme`);
        expect((await cliOk('destinations', 'list', '--tenant', 'acme')).stdout).toContain(
          `destination grant (the deployment's model planner ${LAB})`,
        );
        plannerFake.script([chatCompletion(chatAction({ action: 'done', summary: 'seen' }))]);
        await stack.sim.reset();
        const r = await startWith(LAB);
        expect(r.status).toBe(201);
        expect(await stack.waitFor(r.body.id, isEnded)).toMatchObject({ status: 'completed' });
        expect(plannerFake.requests).toHaveLength(1);
        expect(plannerFake.requests[0].headers.authorization).toBe(
          `Bearer ${process.env[plannerKeyEnv]}`,
        );
      } finally {
        await cli('destinations', 'revoke', '--tenant', 'acme', '--to', LAB);
        await cliOk(
          'secrets',
          'revoke',
          '--tenant',
          'acme',
          '--env',
          modelKeyEnv,
          '--to',
          plannerFake.url,
        );
      }
    });

    it("the deployment's default model: refused until the tenant is granted it, then used, and a revoked grant stops the run", async () => {
      // No planner named (the default model), and the default model's key named outright with
      // the default model itself.
      for (const planner of [
        undefined,
        {
          provider: 'openai-compatible',
          model: 'local-vlm',
          api_key_env: defaultKeyEnv,
          base_url: `${fake.url}/v1`,
        },
      ]) {
        const r = await startWith(planner);
        expect(r.status).toBe(409);
        expect(r.body.message).toContain(
          "goes to the deployment's default model, which is not granted for tenant acme",
        );
        expect(r.body.message).toContain(
          '`npm run cli -- destinations grant --tenant acme --to default-model`',
        );
        if (!planner) expect(r.body.message).not.toContain(new URL(fake.url).port);
      }
      const refusals = (await audit('computer_use.refused')).slice(-2);
      expect(refusals.map((e) => e.details.reason)).toEqual(['not_granted', 'not_granted']);
      // The deployment's key with a model the deployment does not offer is no planner of the
      // catalog: refused when the config names it (docs/planners.md).
      const borrowed = await stack.api.request('PUT', '/api/admin/computer-use', {
        token: stack.tokens.admin,
        json: {
          enabled: true,
          agents: {
            'sap-orders': {
              ...(
                await stack.api.request('GET', '/api/admin/computer-use', {
                  token: stack.tokens.admin,
                })
              ).body.agents['sap-orders'],
              planner: {
                provider: 'openai-compatible',
                model: 'another-model',
                api_key_env: defaultKeyEnv,
                base_url: `${fake.url}/v1`,
              },
            },
          },
        },
      });
      expect([borrowed.status, borrowed.body.error]).toEqual([403, 'planner_access_required']);
      expectNoConnection({ 'the default model': fake });

      const granted = await destinations('grant', 'default-model');
      expect(granted.stdout).toContain(`granted ${fake.url} for tenant acme`);
      expect((await cliOk('destinations', 'list', '--tenant', 'acme')).stdout).toContain(
        "destination grant (the deployment's default model)",
      );
      fake.script([
        chatCompletion(chatAction({ action: 'key', key: 'Tab' })),
        async () => {
          // While the model thinks, the operator takes the default model away from acme.
          await stack.api.app.get(Destinations).revoke('acme', 'default-model', 'os:test');
          return chatCompletion(chatAction({ action: 'key', key: 'Tab' }));
        },
      ]);
      await stack.sim.reset();
      const r = await startWith();
      expect(r.status).toBe(201);
      const ended = await stack.waitFor(r.body.id, isEnded);
      expect(ended).toMatchObject({ status: 'stopped', end_reason: 'not_granted' });
      expect(ended.summary).toContain(
        '`npm run cli -- destinations grant --tenant acme --to default-model`',
      );
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[0].headers.authorization).toBe(`Bearer ${process.env[defaultKeyEnv]}`);
    });
  });

  describe('screen hosts', () => {
    it('a screen host not granted: the run is refused at start and the doctor contacts nothing', async () => {
      const envName = `ACME_PROBE_TOKEN_${unique()}`;
      process.env[envName] = randomBytes(16).toString('hex');
      try {
        await stack.configure({ screen_url: listener.https, screen_token_env: envName });
        const r = await stack.api.request('POST', '/api/computer-use/runs', {
          token: stack.tokens.operator,
          json: { agent: 'sap-orders', goal: 'g' },
        });
        expect(r.status).toBe(409);
        expect(r.body.message).toContain(
          `secrets grant --tenant acme --env ${envName} --to ${listener.https}`,
        );
        const doctor = await stack.api.request('GET', '/api/admin/agents/sap-orders/doctor', {
          token: stack.tokens.admin,
        });
        expect(doctor.body.checks.find((c: any) => c.name === 'token_grant')).toMatchObject({
          ok: false,
          next_step: `ask the deployment operator to run: npm run cli -- secrets grant --tenant acme --env ${envName} --to ${listener.https}`,
        });
        expect(
          doctor.body.checks
            .filter((c: any) => ['reachable', 'tls'].includes(c.name))
            .map((c: any) => c.detail),
        ).toEqual([
          'not checked: the token may not be sent to this host, so the host was not contacted',
          'not checked: the token may not be sent to this host, so the host was not contacted',
        ]);
        expectNoConnection({ listener });
      } finally {
        delete process.env[envName];
      }
    });
  });
});

/**
 * The deployment's default model's key named as a screen host's token, at the default model's own
 * endpoint: it needs no secret grant, but the tenant still needs the default model as a
 * destination, so nothing connects there (before, the doctor and every step contacted it).
 */
describe("the default model's key as a screen host token", () => {
  let api: TestApi;
  let listener: RecordingListener;
  const keyEnv = `WARDEN_TEST_DEFAULT_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;

  beforeAll(async () => {
    process.env[keyEnv] = `sk-${randomBytes(16).toString('hex')}`;
    listener = await startRecordingListener();
    api = await startApi(undefined, {
      DEFAULT_MODEL_PROVIDER: 'openai-compatible',
      DEFAULT_MODEL: 'local-vlm',
      DEFAULT_MODEL_API_KEY_ENV: keyEnv,
      DEFAULT_MODEL_BASE_URL: `${listener.https}/v1`,
    });
  });

  afterAll(async () => {
    await api?.close();
    await listener?.close();
    delete process.env[keyEnv];
  });

  it('is refused at start and by the doctor, contacting nothing', async () => {
    const admin = (await api.token('acme', 'ada', ['computer_use.admin'])).token;
    const operator = (await api.token('acme', 'olga', ['agents.operate'])).token;
    const put = await api.request('PUT', '/api/admin/computer-use', {
      token: admin,
      json: {
        enabled: true,
        agents: { probe: { screen_url: `${listener.https}/`, screen_token_env: keyEnv } },
      },
    });
    expect(put.status).toBe(200);
    const run = await api.request('POST', '/api/computer-use/runs', {
      token: operator,
      json: { agent: 'probe', goal: 'g' },
    });
    expect(run.status).toBe(409);
    expect(run.body.message).toContain(
      "goes to the deployment's default model, which is not granted for tenant acme",
    );
    const doctor = await api.request('GET', '/api/admin/agents/probe/doctor', { token: admin });
    expect(doctor.body.checks.find((c: any) => c.name === 'token_grant')).toMatchObject({
      ok: false,
    });
    expectNoConnection({ listener });
  });
});
