import { Injectable } from '@nestjs/common';
import {
  type ReleasedSecret,
  SecretGrants,
  SecretRefused,
} from '../../secrets/secret-grants.service';
import type { OutlineElement } from '../actions/action.types';
import {
  type DoctorCheck,
  type DoctorCheckName,
  frameCheck,
  sapGuiCheck,
  sizeCheck,
} from './doctor-checks';
import { decodePng, pixelSha256 } from '../pixels/pixels';
import { ScreenHostError } from '../host-client/screen-host-error';
import {
  normaliseFingerprint,
  resolveTarget,
  ScreenHostClient,
  type ConnectionProbe,
  type ScreenHost,
  type ScreenHostHealth,
  type ScreenHostTarget,
  type Screenshot,
} from '../host-client/screen-host.client';

export type { DoctorCheck, DoctorCheckName } from './doctor-checks';
export { frameCheck, sapGuiCheck, sizeCheck } from './doctor-checks';

/** Every check, in the order the doctor makes them. */
const CHECKS: readonly DoctorCheckName[] = [
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
];

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function attempt<T>(call: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    : `${Math.ceil(bytes / 1024)} KiB`;
}

/**
 * Checks an agent's screen host the way a step will use it, and says what to do about each failure
 * (docs/api.md, `GET /api/admin/agents/{name}/doctor`). Reads only: it never sends an action.
 */
@Injectable()
export class DoctorService {
  constructor(
    private readonly client: ScreenHostClient,
    private readonly secrets: SecretGrants,
  ) {}

  /**
   * The checks in order: the settings, then the token (granted for the host's origin in this
   * tenant, and set) before anything contacts the host, then the host itself.
   */
  async check(tenant: string, target: ScreenHostTarget): Promise<DoctorReport> {
    const checks: DoctorCheck[] = [];
    const add = (check: DoctorCheck) => checks.push(check);
    const skipRest = (because: string) => {
      const done = new Set(checks.map((c) => c.name));
      for (const name of CHECKS.filter((n) => !done.has(n))) {
        add({
          name,
          ok: false,
          detail: `not checked: ${because}`,
          next_step: 'fix the failed checks above, then run the doctor again',
        });
      }
      return report(checks);
    };

    try {
      resolveTarget(target, this.client.caDir);
      add({ name: 'config', ok: true, detail: `screen host ${target.screen_url}` });
    } catch (error) {
      add({
        name: 'config',
        ok: false,
        detail: messageOf(error),
        next_step:
          "correct the agent's screen_url, screen_token_env or screen_tls with PUT /api/admin/computer-use",
      });
      return skipRest('the configuration is invalid');
    }
    const token = await this.token(tenant, target, add);
    if (!token)
      return skipRest('the token may not be sent to this host, so the host was not contacted');

    const host = this.client.forTarget(target, token);
    const probe = await host.probe();
    this.connection(host, target, probe, add);
    if (!probe.tlsOk) {
      return skipRest(
        probe.reachable ? 'TLS failed, so nothing was sent' : 'the host is unreachable',
      );
    }

    const [shot, health, outline] = await Promise.all([
      attempt(() => host.screenshot({ attempts: 1 })),
      attempt(() => host.health()),
      attempt(() => host.elements()),
    ]);
    const unauthorized = [shot, health, outline].find(
      (o) => !o.ok && o.error instanceof ScreenHostError && o.error.kind === 'unauthorized',
    );
    const answered = [shot, health, outline].some(
      (o) => o.ok || (o.error instanceof ScreenHostError && o.error.status !== undefined),
    );
    if (unauthorized && !unauthorized.ok) {
      add({
        name: 'token_accepted',
        ok: false,
        detail: messageOf(unauthorized.error),
        next_step: `set ${target.screen_token_env} on the Warden host (API and worker) to the token the screen host was started with (its SCREEN_HOST_TOKEN), then restart them`,
      });
      return skipRest('the host refused the token');
    }
    if (!answered) {
      const error = !shot.ok ? shot.error : !health.ok ? health.error : null;
      add({
        name: 'token_accepted',
        ok: false,
        detail: `not checked: the host did not answer (${messageOf(error)})`,
        next_step:
          'check that the screen host is running and not overloaded, then run the doctor again',
      });
      return skipRest('the host did not answer');
    }
    add({
      name: 'token_accepted',
      ok: true,
      detail: `the screen host accepted the token in ${target.screen_token_env}`,
    });
    const pixels = this.screenshot(shot, add);
    this.outline(outline, add);
    this.idempotency(health, add);
    add(frameCheck(health.ok ? health.value : health, shot.ok ? shot.value : null, pixels));
    // Only for a host that reads SAP GUI: it says so in GET /health.
    const sapGui = sapGuiCheck(health.ok ? health.value : { ok: false });
    if (sapGui) add(sapGui);
    return report(checks);
  }

  private connection(
    host: ScreenHost,
    target: ScreenHostTarget,
    probe: ConnectionProbe,
    add: (c: DoctorCheck) => void,
  ): void {
    const url = new URL(host.url);
    if (!probe.reachable) {
      const timedOut = probe.error?.kind === 'timeout';
      add({
        name: 'reachable',
        ok: false,
        detail: messageOf(probe.error),
        next_step: timedOut
          ? `check that ${url.host} is the screen host's address and that no firewall drops connections from the Warden host to port ${url.port || 443}`
          : `start the screen host (screen-host --backend … --port ${url.port || 443} --cert … --key …), or correct screen_url if ${url.host} is not where it runs`,
      });
      add({
        name: 'tls',
        ok: false,
        detail: 'not checked: the host is unreachable',
        next_step: 'fix the reachable check first',
      });
      return;
    }
    add({ name: 'reachable', ok: true, detail: `${url.host} accepts connections` });
    if (probe.tlsOk) {
      const by =
        probe.verifiedBy === 'system'
          ? "the system's CAs"
          : probe.verifiedBy === 'ca_file'
            ? 'the CA file'
            : probe.verifiedBy === 'pin'
              ? 'the pinned fingerprint'
              : 'the pinned fingerprint and the CA file';
      add({
        name: 'tls',
        ok: true,
        detail: `certificate ${probe.fingerprintSha256} verified by ${by}`,
      });
      return;
    }
    const presented = probe.fingerprintSha256;
    const message = messageOf(probe.error);
    let next: string;
    const pin = target.screen_tls?.fingerprint_sha256
      ? normaliseFingerprint(target.screen_tls.fingerprint_sha256)
      : null;
    if (presented && pin && presented !== pin) {
      next = `the certificate's fingerprint is ${presented}, the config pins ${pin}: if the screen host's certificate was replaced on purpose, set screen_tls.fingerprint_sha256 to ${presented} (the last line \`screen-host cert\` printed); otherwise find out who answers at ${url.host}`;
    } else if (presented) {
      next = `give screen_tls.ca_file the CA that signed the screen host's certificate, or pin the certificate with screen_tls.fingerprint_sha256 = ${presented} after checking it is the screen host's (\`screen-host cert\` printed it)`;
    } else if (/plain HTTP/.test(message)) {
      next = 'start the screen host with --cert and --key: Warden speaks HTTPS only';
    } else {
      next = `check that the screen host at ${url.host} serves TLS with a certificate`;
    }
    add({ name: 'tls', ok: false, detail: message, next_step: next });
  }

  /**
   * The token: granted for the host's origin in this tenant (docs/screen-host.md), then set on the Warden
   * host. Released for the host when both hold; null (with the failed check added) otherwise.
   */
  private async token(
    tenant: string,
    target: ScreenHostTarget,
    add: (c: DoctorCheck) => void,
  ): Promise<ReleasedSecret | null> {
    const name = target.screen_token_env;
    const origin = new URL(target.screen_url).origin;
    try {
      const token = await this.secrets.release({
        tenant,
        envName: name,
        destination: target.screen_url,
        what: "the screen host's token",
      });
      add({ name: 'token_grant', ok: true, detail: `${name} is granted for ${origin}` });
      add({
        name: 'token_variable',
        ok: true,
        detail: `${name} is set (its value is never shown)`,
      });
      return token;
    } catch (error) {
      if (!(error instanceof SecretRefused)) throw error;
      if (error.reason === 'unset') {
        add({ name: 'token_grant', ok: true, detail: `${name} is granted for ${origin}` });
        add({
          name: 'token_variable',
          ok: false,
          detail: `the environment variable ${name} is not set on the Warden host`,
          next_step: `set the environment variable ${name} on the Warden host (API and worker) to the screen host's token, then restart them`,
        });
        return null;
      }
      add({
        name: 'token_grant',
        ok: false,
        detail: error.message,
        next_step: error.fix
          ? `ask the deployment operator to run: ${error.fix}`
          : `name another variable in screen_token_env: ${name} can never be sent to a screen host`,
      });
      return null;
    }
  }

  /** Checks the screenshot; the pixel SHA-256 of its PNG when it decodes. */
  private screenshot(shot: Outcome<Screenshot>, add: (c: DoctorCheck) => void): string | null {
    if (!shot.ok) {
      add({
        name: 'screenshot',
        ok: false,
        detail: messageOf(shot.error),
        next_step:
          "the screen host's GET /screenshot does not give a usable PNG: check its backend (is the display running and DISPLAY right for x11, is the session unlocked for windows?) and its log",
      });
      add({
        name: 'screen_size',
        ok: false,
        detail: 'not checked: no screenshot',
        next_step: 'fix the screenshot check first',
      });
      return null;
    }
    const { png, width, height } = shot.value;
    let decoded: ReturnType<typeof decodePng>;
    const started = performance.now();
    try {
      decoded = decodePng(png);
    } catch (error) {
      add({
        name: 'screenshot',
        ok: false,
        detail: `the screenshot does not decode: ${messageOf(error)}`,
        next_step:
          'the screen host sends a damaged PNG: check its backend and its log, or update it',
      });
      add({
        name: 'screen_size',
        ok: false,
        detail: 'not checked: the PNG does not decode',
        next_step: 'fix the screenshot check first',
      });
      return null;
    }
    const ms = Math.round(performance.now() - started);
    add({
      name: 'screenshot',
      ok: true,
      detail: `a ${decoded.width}x${decoded.height} PNG of ${kib(png.length)}, decoded in ${ms} ms`,
    });
    add(sizeCheck(width, height, decoded.width, decoded.height));
    return pixelSha256(decoded);
  }

  private outline(outline: Outcome<OutlineElement[] | null>, add: (c: DoctorCheck) => void): void {
    if (!outline.ok) {
      add({
        name: 'outline',
        ok: false,
        detail: messageOf(outline.error),
        next_step:
          "the screen host's GET /elements answers something Warden cannot use: fix or update the host, or start it with --no-elements so labels are read from pixels",
      });
    } else if (outline.value === null) {
      add({ name: 'outline', ok: true, detail: 'no outline; labels will be read from pixels' });
    } else {
      const n = outline.value.length;
      add({
        name: 'outline',
        ok: true,
        detail: `${n} element${n === 1 ? '' : 's'} in the outline`,
      });
    }
  }

  private idempotency(
    health: Outcome<ScreenHostHealth | null>,
    add: (c: DoctorCheck) => void,
  ): void {
    const consequence =
      'until then a write whose answer is lost cannot be checked, and its run ends outcome_unknown';
    if (!health.ok) {
      add({
        name: 'idempotency',
        ok: false,
        detail: `GET /health failed: ${messageOf(health.error)}`,
        next_step: `fix the screen host's GET /health so it lists its capabilities; ${consequence}`,
      });
    } else if (health.value === null) {
      add({
        name: 'idempotency',
        ok: false,
        detail: 'the screen host has no GET /health, so it does not say it honours Idempotency-Key',
        next_step: `update the screen host to a version with GET /health and Idempotency-Key; ${consequence}`,
      });
    } else if (!health.value.capabilities.includes('idempotency')) {
      add({
        name: 'idempotency',
        ok: false,
        detail: `the screen host's capabilities (${health.value.capabilities.join(', ') || 'none'}) do not include idempotency`,
        next_step: `update the screen host to a version that honours Idempotency-Key; ${consequence}`,
      });
    } else {
      const about = [health.value.backend, health.value.version].filter(Boolean).join(' ');
      add({
        name: 'idempotency',
        ok: true,
        detail: `the screen host honours Idempotency-Key${about ? ` (${about})` : ''}`,
      });
    }
  }
}

function report(checks: DoctorCheck[]): DoctorReport {
  return { ok: checks.every((c) => c.ok), checks };
}
