import { frameSha256 } from '@warden/protocol';
import type { ScreenBackend } from './backends/backend';
import { FrameCheck, preconditionOf } from './frame-check';
import { rawFrame } from './frames';
import { HttpError } from './http-error';
import { encodeScreenPng } from '@warden/protocol';

const sha = 'ab'.repeat(32);

function refusedWith(headers: Record<string, string | string[]>): string {
  try {
    preconditionOf(headers);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 400) return error.message;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('preconditionOf', () => {
  it('reads X-Expect-Frame and X-Frame-Ignore; none without X-Expect-Frame', () => {
    expect(preconditionOf({})).toBeNull();
    expect(preconditionOf({ 'x-expect-frame': sha })).toEqual({ expect: sha, ignore: [] });
    expect(preconditionOf({ 'x-expect-frame': sha, 'x-frame-ignore': '1,2,3,4' })).toEqual({
      expect: sha,
      ignore: [{ x: 1, y: 2, width: 3, height: 4 }],
    });
    expect(preconditionOf({ 'x-expect-frame': sha, 'x-frame-ignore': '' })).toEqual({
      expect: sha,
      ignore: [],
    });
  });

  it('refuses malformed headers with 400', () => {
    expect(refusedWith({ 'x-expect-frame': sha.toUpperCase() })).toMatch(/64 lower-case hex/);
    expect(refusedWith({ 'x-frame-ignore': '1,2,3,4' })).toMatch(/goes with X-Expect-Frame/);
    expect(refusedWith({ 'x-expect-frame': sha, 'x-frame-ignore': '1,2,3' })).toMatch(
      /X-Frame-Ignore rectangle 0/,
    );
    expect(refusedWith({ 'x-expect-frame': [sha, sha] })).toMatch(/sent once/);
  });
});

describe('FrameCheck', () => {
  /** A 2x1 screen whose pixels the test sets; PNG only, as windows serves it. */
  function screen() {
    const state = { rgba: new Uint8Array([1, 2, 3, 255, 4, 5, 6, 255]) };
    const backend: ScreenBackend = {
      name: 'fake',
      size: () => ({ width: 2, height: 1 }),
      screenshot: async () => ({
        png: encodeScreenPng(state.rgba, 2, 1),
        width: 2,
        height: 1,
      }),
      perform: async () => undefined,
      elements: () => null,
      typingTarget: () => 'unknown',
      close: async () => undefined,
    };
    return { state, backend };
  }

  it('names a served screenshot by its pixels, and accepts the screen while it is that frame', async () => {
    const { backend } = screen();
    const check = new FrameCheck(backend);
    const frame = check.served(await backend.screenshot());
    expect(frame.sha256).toBe(frameSha256(2, 1, new Uint8Array([1, 2, 3, 255, 4, 5, 6, 255])));
    await expect(check.refusal({ expect: frame.sha256, ignore: [] })).resolves.toBeNull();
  });

  it('refuses a changed screen, unless the change is left out; an unknown frame', async () => {
    const { state, backend } = screen();
    const check = new FrameCheck(backend);
    const frame = check.served(await backend.screenshot());
    state.rgba = new Uint8Array([1, 2, 3, 255, 9, 9, 9, 255]);
    await expect(check.refusal({ expect: frame.sha256, ignore: [] })).resolves.toMatchObject({
      code: 'screen_changed',
      message: expect.stringContaining('differs from the frame'),
    });
    await expect(
      check.refusal({ expect: frame.sha256, ignore: [{ x: 1, y: 0, width: 1, height: 1 }] }),
    ).resolves.toBeNull();
    await expect(check.refusal({ expect: sha, ignore: [] })).resolves.toMatchObject({
      code: 'frame_unknown',
    });
  });

  it('uses the frame a backend hands over, and its capture when it has one', async () => {
    const { backend } = screen();
    const handed = rawFrame(1, 1, new Uint8Array([7, 7, 7, 255]));
    const check = new FrameCheck({ ...backend, capture: async () => handed });
    const frame = check.served({ png: Buffer.alloc(0), width: 1, height: 1, frame: handed });
    expect(frame).toBe(handed);
    await expect(check.refusal({ expect: handed.sha256, ignore: [] })).resolves.toBeNull();
    // A screen of another size is a change, whatever is left out.
    const bigger = new FrameCheck({
      ...backend,
      capture: async () => rawFrame(2, 1, new Uint8Array(8)),
    });
    bigger.served({ png: Buffer.alloc(0), width: 1, height: 1, frame: handed });
    await expect(
      bigger.refusal({ expect: handed.sha256, ignore: [{ x: 0, y: 0, width: 9, height: 9 }] }),
    ).resolves.toMatchObject({ code: 'screen_changed', message: expect.stringContaining('2x1') });
  });
});
