import { frameCheck, sapGuiCheck, sizeCheck } from './doctor-checks';
import type { ScreenHostHealth } from '../host-client/screen-host.types';

describe('sizeCheck', () => {
  it('passes equal sizes', () => {
    expect(sizeCheck(1280, 800, 1280, 800)).toEqual({
      name: 'screen_size',
      ok: true,
      detail: "actions use 1280x800, the PNG's own pixels",
    });
  });

  it('passes a HiDPI scale that is exact on both axes, and says which', () => {
    expect(sizeCheck(1280, 800, 2560, 1600).detail).toBe(
      'HiDPI: the PNG is 2560x1600, actions use 1280x800, an exact scale of 2 on both axes; Warden scales',
    );
    expect(sizeCheck(1280, 800, 1920, 1200).detail).toContain('an exact scale of 3/2');
    expect(sizeCheck(1280, 800, 640, 400).detail).toContain('an exact scale of 1/2');
  });

  it('fails axes that scale differently, with a next step', () => {
    const check = sizeCheck(1280, 800, 2560, 1440);
    expect(check.ok).toBe(false);
    expect(check.detail).toContain('the axes scale differently (2 and 1.8)');
    expect(check.next_step).toMatch(/X-Screen-Width\/X-Screen-Height/);
  });
});

describe('frameCheck', () => {
  const sha = 'c3'.repeat(32);
  const health = (capabilities: string[]) => ({ backend: 'sim', capabilities });
  const announced = health(['idempotency', 'action-lookup', 'frame_precondition']);

  it('passes a host that names its frames by their pixels', () => {
    const check = frameCheck(announced, { frameSha256: sha }, sha);
    expect(check).toMatchObject({ name: 'frame_precondition', ok: true });
    expect(check.detail).toMatch(/checks the frame each action was judged on/);
  });

  it('passes, and says what it means, a host without the capability', () => {
    for (const h of [health(['idempotency']), null]) {
      const check = frameCheck(h, { frameSha256: null }, sha);
      expect(check.ok).toBe(true);
      expect(check.detail).toMatch(/does not announce frame_precondition: Warden compares a fresh/);
    }
  });

  it('fails a host that announces it but sends no X-Frame-SHA256, or another hash', () => {
    const none = frameCheck(announced, { frameSha256: null }, sha);
    expect(none.ok).toBe(false);
    expect(none.detail).toMatch(/carries no X-Frame-SHA256/);
    expect(none.next_step).toBeDefined();
    const other = frameCheck(announced, { frameSha256: 'd4'.repeat(32) }, sha);
    expect(other.ok).toBe(false);
    expect(other.detail).toMatch(/is not the SHA-256 of its PNG's pixels/);
  });

  it('is not checked without a health answer or a screenshot', () => {
    expect(frameCheck({ ok: false, error: new Error('timeout') }, null, null)).toMatchObject({
      ok: false,
      detail: 'not checked: GET /health failed (timeout)',
    });
    expect(frameCheck(announced, null, null)).toMatchObject({
      ok: false,
      detail: 'not checked: no screenshot that decodes',
    });
  });
});

describe('sapGuiCheck', () => {
  const withSap = (sapGui: NonNullable<ScreenHostHealth['sapGui']>): ScreenHostHealth => ({
    backend: 'windows',
    capabilities: ['idempotency'],
    sapGui,
  });
  const session = { system: 'PRD', client: '100', user: 'WARDEN01', transaction: 'VA02' };

  it('is not made for a host that reads no SAP GUI, or whose health failed', () => {
    expect(sapGuiCheck({ backend: 'sim', capabilities: [] })).toBeNull();
    expect(sapGuiCheck(null)).toBeNull();
    expect(sapGuiCheck({ ok: false })).toBeNull();
  });

  it('names the profile parameter when the server disables scripting, and recommends read-only with it', () => {
    const check = sapGuiCheck(
      withSap({
        state: 'disabled_by_server',
        detail: '1 of 1 connections say DisabledByServer',
        readOnly: null,
        session: null,
        outline: null,
      }),
    );
    expect(check).toMatchObject({ name: 'sap_gui_scripting', ok: false });
    expect(check?.detail).toContain('disabled_by_server: 1 of 1 connections say DisabledByServer');
    expect(check?.next_step).toContain('sapgui/user_scripting = TRUE');
    expect(check?.next_step).toContain('RZ11');
    expect(check?.next_step).toContain('sapgui/user_scripting_per_user');
    expect(check?.next_step).toContain('S_SCR');
    expect(check?.next_step).toContain('sapgui/user_scripting_set_readonly = TRUE');
  });

  it('says where the client switched scripting off', () => {
    const check = sapGuiCheck(
      withSap({
        state: 'scripting_disabled',
        detail: null,
        readOnly: null,
        session: null,
        outline: null,
      }),
    );
    expect(check?.ok).toBe(false);
    expect(check?.next_step).toMatch(/Enable scripting/);
    expect(check?.next_step).toMatch(/Notify when a script attaches/);
  });

  it('passes read-only scripting as recommended, and says what it reads and served', () => {
    const check = sapGuiCheck(
      withSap({
        state: 'ok',
        detail: null,
        readOnly: true,
        session,
        outline: { served: 46, source: 'object_tree' },
      }),
    );
    expect(check).toEqual({
      name: 'sap_gui_scripting',
      ok: true,
      detail:
        'SAP GUI Scripting reads the active session (system PRD, client 100, user WARDEN01, transaction VA02), read-only (sapgui/user_scripting_set_readonly) as recommended; the last outline held 46 elements (object_tree)',
    });
  });

  it('passes scripting that is not read-only, recommending the parameter', () => {
    const check = sapGuiCheck(
      withSap({ state: 'ok', detail: null, readOnly: false, session, outline: null }),
    );
    expect(check?.ok).toBe(true);
    expect(check?.detail).toContain('sapgui/user_scripting_set_readonly = TRUE is recommended');
  });

  it('fails when scripting works but the last outline was refused (SAP GUI could not be placed)', () => {
    const check = sapGuiCheck(
      withSap({
        state: 'ok',
        detail: null,
        readOnly: true,
        session,
        outline: {
          refused: 'geometry_mismatch',
          detail: 'no one scale maps the one onto the other',
        },
      }),
    );
    expect(check?.ok).toBe(false);
    expect(check?.detail).toContain('the last outline was refused (geometry_mismatch');
    expect(check?.next_step).toMatch(/display scaling/);
  });
});
