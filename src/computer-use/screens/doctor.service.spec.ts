import { sizeCheck } from './doctor.service';

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
