/**
 * The doctor against real parts: sim screen hosts over real HTTPS (in-process), a windows backend
 * with SAP GUI's answers from a fixture, hand-made servers that misbehave on purpose, and secret
 * grants in a real PostgreSQL database (test/support/screen-host-bed.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { startScreenHost } from '../../screen-host/src';
import type { ScreenBackend } from '../../screen-host/src/backends/backend';
import { SimBackend } from '../../screen-host/src/backends/sim/sim-backend';
import { SapGuiProvider } from '../../screen-host/src/backends/windows/sapgui/sapgui-provider';
import { DoctorReport, DoctorService } from '../../src/computer-use/doctor/doctor.service';
import { decodePng, pixelSha256 } from '../../src/computer-use/pixels/pixels';
import {
  TOKEN,
  TOKEN_ENV,
  UNSET_ENV,
  client,
  certA,
  certB,
  sim,
  target,
  fakeHost,
  recordingTlsServer,
  png,
  sendPng,
  sendJson,
  deadPort,
  cleanups,
  later,
  grants,
  granted,
  fetchSim,
  useScreenHostBed,
} from '../support/screen-host-bed';

useScreenHostBed();

describe('DoctorService', () => {
  let doctor: DoctorService;

  beforeAll(() => {
    doctor = new DoctorService(client, grants);
  });

  const check = (report: DoctorReport, name: string) => report.checks.find((c) => c.name === name)!;

  it('is all green on a sim host, and sends no action', async () => {
    await fetchSim('/sim/reset');
    const report = await doctor.check('acme', await granted(target(sim.url)));
    expect(report.checks.map((c) => c.name)).toEqual([
      'config',
      'token_grant',
      'token_variable',
      'reachable',
      'tls',
      'token_accepted',
      'screenshot',
      'screen_size',
      'outline',
      'idempotency',
      'frame_precondition',
    ]);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(check(report, 'frame_precondition').detail).toMatch(
      /checks the frame each action was judged on/,
    );
    expect(report.ok).toBe(true);
    expect(check(report, 'tls').detail).toBe(
      `certificate ${certA.fingerprintSha256} verified by the pinned fingerprint`,
    );
    expect(check(report, 'screen_size').detail).toBe("actions use 1280x800, the PNG's own pixels");
    expect(check(report, 'outline').detail).toMatch(/^\d+ elements in the outline$/);
    expect(check(report, 'token_variable').detail).not.toContain(TOKEN);
    const events = (await fetchSim('/sim/events', 'GET')).events as unknown[];
    expect(events).toEqual([]);
  });

  it('says "no outline; labels will be read from pixels" when the host has none', async () => {
    const bare = await startScreenHost({
      backend: 'sim',
      token: TOKEN,
      port: 0,
      tls: { certPath: certA.certPath, keyPath: certA.keyPath },
      elements: false,
    });
    cleanups.push(() => bare.close());
    const report = await doctor.check(
      'acme',
      await granted(target(bare.url, { screen_tls: { ca_file: certA.certPath } })),
    );
    expect(report.ok).toBe(true);
    expect(check(report, 'outline')).toEqual({
      name: 'outline',
      ok: true,
      detail: 'no outline; labels will be read from pixels',
    });
    expect(check(report, 'tls').detail).toMatch(/verified by the CA file$/);
  });

  it('on a host next to SAP GUI, says what SAP GUI Scripting gives it, and names the profile parameter where the server refuses', async () => {
    const fixture = JSON.parse(
      readFileSync(
        join(__dirname, '../../screen-host/test/fixtures/sapgui/va02-initial.snapshot.json'),
        'utf8',
      ),
    ) as Record<string, unknown>;
    const { trees, ...rest } = fixture;
    const snapshot = {
      ...rest,
      trees_b64: (trees as unknown[]).map((t) => Buffer.from(JSON.stringify(t)).toString('base64')),
    };
    let refusal: Record<string, string> | null = null;
    // The windows backend but for its PowerShell helpers: SAP GUI's answers are the fixture's.
    const screen = new SimBackend('en');
    const sap = new SapGuiProvider(
      'tree',
      async (read) =>
        refusal ?? (read === 'probe' ? { state: 'ok', session: fixture.session } : snapshot),
    );
    const backend: ScreenBackend = {
      name: 'windows',
      size: () => screen.size(),
      screenshot: () => screen.screenshot(),
      perform: (action) => screen.perform(action),
      elements: () => sap.outline(screen.size()),
      health: async () => {
        const sapGui = await sap.health();
        return { elements: sapGui.state === 'ok', facts: { sap_gui: sapGui } };
      },
      typingTarget: () => 'unknown',
      close: () => screen.close(),
    };
    const host = await startScreenHost({
      backend,
      token: TOKEN,
      port: 0,
      tls: { certPath: certA.certPath, keyPath: certA.keyPath },
    });
    cleanups.push(() => host.close());
    const at = target(host.url, { screen_tls: { ca_file: certA.certPath } });

    let report = await doctor.check('acme', await granted(at));
    expect(report.checks.map((c) => c.name).slice(-2)).toEqual([
      'frame_precondition',
      'sap_gui_scripting',
    ]);
    expect(check(report, 'sap_gui_scripting')).toMatchObject({
      ok: true,
      detail: expect.stringContaining(
        'SAP GUI Scripting reads the active session (system PRD, client 100, user WARDEN01, transaction VA02), read-only (sapgui/user_scripting_set_readonly) as recommended',
      ),
    });
    expect(check(report, 'outline').detail).toMatch(/^\d+ elements in the outline$/);

    refusal = { refused: 'disabled_by_server', detail: '1 of 1 connections say DisabledByServer' };
    report = await doctor.check('acme', await granted(at));
    expect(check(report, 'sap_gui_scripting')).toMatchObject({
      ok: false,
      detail: expect.stringContaining(
        'disabled_by_server: 1 of 1 connections say DisabledByServer',
      ),
      next_step: expect.stringContaining('sapgui/user_scripting = TRUE'),
    });
    expect(check(report, 'outline').detail).toBe('no outline; labels will be read from pixels');
    expect(report.ok).toBe(false);
  });

  it('each failure has a next step', async () => {
    const port = await deadPort();
    const down = await doctor.check('acme', await granted(target(`https://127.0.0.1:${port}`)));
    expect(down.ok).toBe(false);
    expect(check(down, 'reachable')).toMatchObject({
      ok: false,
      next_step: expect.stringMatching(/^start the screen host/),
    });

    const pinned = await doctor.check(
      'acme',
      await granted(
        target(sim.url, { screen_tls: { fingerprint_sha256: certB.fingerprintSha256 } }),
      ),
    );
    expect(check(pinned, 'reachable').ok).toBe(true);
    expect(check(pinned, 'tls')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining(
        `the certificate's fingerprint is ${certA.fingerprintSha256}, the config pins ${certB.fingerprintSha256}`,
      ),
    });
    expect(check(pinned, 'token_accepted')).toMatchObject({
      ok: false,
      detail: 'not checked: TLS failed, so nothing was sent',
    });

    const system = await doctor.check(
      'acme',
      await granted(target(sim.url, { screen_tls: undefined })),
    );
    expect(check(system, 'tls').next_step).toContain(
      `screen_tls.fingerprint_sha256 = ${certA.fingerprintSha256}`,
    );

    const unset = await doctor.check(
      'acme',
      await granted(target(sim.url, { screen_token_env: UNSET_ENV })),
    );
    expect(check(unset, 'token_variable')).toMatchObject({
      ok: false,
      next_step: `set the environment variable ${UNSET_ENV} on the Warden host (API and worker) to the screen host's token, then restart them`,
    });

    const wrongEnv = `${TOKEN_ENV}_DOCTOR`;
    process.env[wrongEnv] = randomBytes(24).toString('hex');
    try {
      const wrong = await doctor.check(
        'acme',
        await granted(target(sim.url, { screen_token_env: wrongEnv })),
      );
      expect(check(wrong, 'token_variable').ok).toBe(true);
      expect(check(wrong, 'token_accepted')).toMatchObject({
        ok: false,
        next_step: expect.stringContaining(`set ${wrongEnv} on the Warden host`),
      });
    } finally {
      delete process.env[wrongEnv];
    }

    const config = await doctor.check(
      'acme',
      await granted(target(sim.url.replace('https:', 'http:'))),
    );
    expect(check(config, 'config')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining('PUT /api/admin/computer-use'),
    });
    expect(config.checks).toHaveLength(11);
  });

  it('names a missing grant and the command that adds it, without contacting the host', async () => {
    const recorder = await later(recordingTlsServer(certA));
    // No granted(): the operator never let this token go to this host.
    const report = await doctor.check('acme', target(recorder.url));
    const origin = new URL(recorder.url).origin;
    expect(check(report, 'token_grant')).toEqual({
      name: 'token_grant',
      ok: false,
      detail: expect.stringContaining(`is not granted for ${origin} in tenant acme`),
      next_step: `ask the deployment operator to run: npm run cli -- secrets grant --tenant acme --env ${TOKEN_ENV} --to ${origin}`,
    });
    expect(check(report, 'reachable').detail).toBe(
      'not checked: the token may not be sent to this host, so the host was not contacted',
    );
    expect(report.ok).toBe(false);
    // One of Warden's own variables can never be granted: the doctor says to name another.
    const own = await doctor.check(
      'acme',
      target(recorder.url, { screen_token_env: 'DATABASE_URL' }),
    );
    expect(check(own, 'token_grant').next_step).toMatch(
      /^name another variable in screen_token_env/,
    );
    expect(recorder.connections()).toBe(0);
  });

  it('checks the screenshot, its size against the headers (HiDPI), the outline and idempotency', async () => {
    const answers: Record<string, (res: ServerResponse) => void> = {};
    const host = await later(
      fakeHost((req, res) => {
        const answer = answers[req.url ?? ''];
        if (answer) answer(res);
        else sendJson(res, 404, { message: `no route ${req.method} ${req.url}` });
      }),
    );

    // HiDPI at an exact scale of 2: fine, and said so. No /health: no idempotency.
    answers['/screenshot'] = (res) => sendPng(res, png(200, 100), 100, 50);
    let report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'screen_size')).toMatchObject({
      ok: true,
      detail: expect.stringContaining(
        'HiDPI: the PNG is 200x100, actions use 100x50, an exact scale of 2 on both axes',
      ),
    });
    expect(check(report, 'outline').detail).toBe('no outline; labels will be read from pixels');
    expect(check(report, 'idempotency')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining('outcome_unknown'),
    });

    // 3/2, exact.
    answers['/screenshot'] = (res) => sendPng(res, png(150, 90), 100, 60);
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'screen_size').detail).toContain('an exact scale of 3/2');

    // Axes that scale differently: clicks would land wrong.
    answers['/screenshot'] = (res) => sendPng(res, png(200, 100), 100, 60);
    answers['/health'] = (res) =>
      sendJson(res, 200, { backend: 'custom', capabilities: ['elements'] });
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'screen_size')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining('X-Screen-Width'),
    });
    expect(check(report, 'idempotency').detail).toContain('do not include idempotency');
    expect(check(report, 'frame_precondition')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('does not announce frame_precondition'),
    });

    // Announced, but the screenshot names no frame, or another frame than its pixels.
    answers['/health'] = (res) =>
      sendJson(res, 200, {
        backend: 'custom',
        capabilities: ['idempotency', 'frame_precondition'],
      });
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'frame_precondition')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('carries no X-Frame-SHA256'),
    });
    answers['/screenshot'] = (res) => sendPng(res, png(200, 100), 100, 50, 'ee'.repeat(32));
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'frame_precondition')).toMatchObject({
      ok: false,
      detail: expect.stringContaining("is not the SHA-256 of its PNG's pixels"),
    });
    const image = png(200, 100);
    answers['/screenshot'] = (res) => sendPng(res, image, 100, 50, pixelSha256(decodePng(image)));
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'frame_precondition').ok).toBe(true);

    // A screenshot that is not a PNG, an outline of the wrong shape.
    answers['/screenshot'] = (res) => sendPng(res, Buffer.from('GIF89a....'), 100, 60);
    answers['/elements'] = (res) => sendJson(res, 200, { elements: [] });
    report = await doctor.check('acme', await granted(target(host.url)));
    expect(check(report, 'screenshot')).toMatchObject({
      ok: false,
      next_step: expect.stringContaining('backend'),
    });
    expect(check(report, 'outline')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('not a list of elements'),
    });
    expect(report.ok).toBe(false);

    expect(host.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(host.requests.some((r) => r.path === '/action')).toBe(false);
  });
});
