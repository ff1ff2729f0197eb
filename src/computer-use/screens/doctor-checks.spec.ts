import { frameCheck, sizeCheck } from './doctor-checks';

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
