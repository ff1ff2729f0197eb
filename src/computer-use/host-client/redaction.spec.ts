import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import type { OutlineElement } from '../actions';
import { decodePng, type Decoded, pixelSha256 } from '../pixels/pixels';
import { hiddenChange, redactingHost, redactOutline, redactScreenshot } from './redaction';
import type { ScreenHost, Screenshot } from './screen-host.types';

/** A 40×30 image whose every pixel has its own colour, so that any wrong pixel shows. */
function patterned(width = 40, height = 30): Decoded {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      rgba.set([x * 5, y * 7, (x + y) % 256, 255], (y * width + x) * 4);
  }
  return { width, height, rgba };
}

function shotOf(image: Decoded, space = { width: image.width, height: image.height }): Screenshot {
  const png = new PNG({ width: image.width, height: image.height });
  image.rgba.copy(png.data);
  const bytes = PNG.sync.write(png);
  return {
    png: bytes,
    pngSha256: createHash('sha256').update(bytes).digest('hex'),
    width: space.width,
    height: space.height,
    pngWidth: image.width,
    pngHeight: image.height,
    frameSha256: null,
  };
}

function pixel(image: Decoded, x: number, y: number): number[] {
  const i = (y * image.width + x) * 4;
  return [...image.rgba.subarray(i, i + 4)];
}

function withPixel(image: Decoded, x: number, y: number, rgba: number[]): Decoded {
  const copy = Buffer.from(image.rgba);
  copy.set(rgba, (y * image.width + x) * 4);
  return { ...image, rgba: copy };
}

const REGION = { x: 10, y: 5, width: 8, height: 4 };

describe('redactScreenshot', () => {
  it('blacks out the region and leaves every other pixel as it was', () => {
    const image = patterned();
    const redacted = redactScreenshot(shotOf(image), [REGION]);
    const out = decodePng(redacted.png);
    expect([out.width, out.height]).toEqual([40, 30]);
    for (let y = 0; y < 30; y++) {
      for (let x = 0; x < 40; x++) {
        const inside = x >= 10 && x < 18 && y >= 5 && y < 9;
        expect(pixel(out, x, y)).toEqual(inside ? [0, 0, 0, 255] : pixel(image, x, y));
      }
    }
    expect(redacted.pngSha256).toBe(createHash('sha256').update(redacted.png).digest('hex'));
  });

  it('scales the region from the coordinate space of actions to the PNG (HiDPI)', () => {
    const image = patterned(80, 60);
    const redacted = redactScreenshot(shotOf(image, { width: 40, height: 30 }), [REGION]);
    const out = decodePng(redacted.png);
    expect(pixel(out, 20, 10)).toEqual([0, 0, 0, 255]);
    expect(pixel(out, 35, 17)).toEqual([0, 0, 0, 255]);
    expect(pixel(out, 36, 17)).toEqual(pixel(image, 36, 17));
    expect(pixel(out, 19, 10)).toEqual(pixel(image, 19, 10));
  });

  it("keeps the host's frame hash, and computes the real pixels' one for a host that sends none", () => {
    const image = patterned();
    const host = redactScreenshot({ ...shotOf(image), frameSha256: 'f'.repeat(64) }, [REGION]);
    expect(host.frameSha256).toBe('f'.repeat(64));
    const computed = redactScreenshot(shotOf(image), [REGION]);
    expect(computed.frameSha256).toBe(pixelSha256(image));
    expect(computed.frameSha256).not.toBe(pixelSha256(decodePng(computed.png)));
  });

  it("knows the stored PNG's pixel hash without decoding it again, translucent pixels included", () => {
    const image = withPixel(patterned(), 30, 20, [9, 9, 9, 128]);
    const redacted = redactScreenshot(shotOf(image), [REGION]);
    expect(redacted.pixelSha256).toBe(pixelSha256(decodePng(redacted.png)));
  });

  it('hashes what the region hid: a change there shows in the hash, not in the PNG', () => {
    const image = patterned();
    const before = redactScreenshot(shotOf(image), [REGION]);
    const inside = redactScreenshot(shotOf(withPixel(image, 12, 6, [1, 2, 3, 255])), [REGION]);
    expect(inside.pngSha256).toBe(before.pngSha256);
    expect(inside.hiddenSha256).not.toBe(before.hiddenSha256);
    const outside = redactScreenshot(shotOf(withPixel(image, 30, 20, [1, 2, 3, 255])), [REGION]);
    expect(outside.hiddenSha256).toBe(before.hiddenSha256);
    expect(outside.pngSha256).not.toBe(before.pngSha256);
  });

  it('gives the same bytes for the same pixels', () => {
    const a = redactScreenshot(shotOf(patterned()), [REGION]);
    const b = redactScreenshot(shotOf(patterned()), [REGION]);
    expect(b.png.equals(a.png)).toBe(true);
  });

  it('refuses a PNG that does not decode', () => {
    const bad = { ...shotOf(patterned()), png: Buffer.from('not a png') };
    expect(() => redactScreenshot(bad, [REGION])).toThrow(/PNG/i);
  });
});

describe('redactOutline', () => {
  const field = (id: string, x: number, value?: string): OutlineElement => ({
    id,
    role: 'textbox',
    name: id,
    rect: { x, y: 5, width: 4, height: 2 },
    ...(value === undefined ? {} : { value }),
  });

  it('leaves out every text of every element overlapping a region, and nothing else', () => {
    const status: OutlineElement = {
      id: 'wnd[0]/sbar',
      role: 'status',
      name: 'Customer 4711 is blocked',
      description: 'Status bar',
      rect: { x: 0, y: 6, width: 40, height: 2 },
      states: ['disabled'],
      area: 'status',
      message_type: 'E',
    };
    const outline = [
      { ...field('in', 12, 'secret'), description: 'Müller GmbH' },
      field('edge', 17, 'touching'),
      { ...field('out', 30, 'kept'), description: 'kept too' },
      status,
    ];
    const redacted = redactOutline(outline, [REGION])!;
    expect(redacted).toEqual([
      { id: 'in', role: 'textbox', name: '', rect: outline[0].rect, redacted: true },
      { id: 'edge', role: 'textbox', name: '', rect: outline[1].rect, redacted: true },
      outline[2],
      {
        id: 'wnd[0]/sbar',
        role: 'status',
        name: '',
        rect: status.rect,
        states: ['disabled'],
        area: 'status',
        message_type: 'E',
        redacted: true,
      },
    ]);
    expect(outline[0]).toMatchObject({ name: 'in', value: 'secret', description: 'Müller GmbH' });
  });

  it('keeps a host without an outline without one', () => {
    expect(redactOutline(null, [REGION])).toBeNull();
  });
});

describe('hiddenChange', () => {
  it('is null only when both hashes are equal or both absent', () => {
    const a = 'a'.repeat(64);
    expect(hiddenChange(a, { hiddenSha256: a })).toBeNull();
    expect(hiddenChange(null, {})).toBeNull();
    expect(hiddenChange(a, { hiddenSha256: 'b'.repeat(64) })).toMatch(/under a redacted region/);
    expect(hiddenChange(a, {})).toMatch(/redact_regions changed/);
    expect(hiddenChange(null, { hiddenSha256: a })).toMatch(/redact_regions changed/);
  });
});

describe('redactingHost', () => {
  it('redacts what Warden reads and passes actions to the host as they are', async () => {
    const shot = shotOf(patterned());
    const act = jest.fn().mockResolvedValue({ ok: true, ms: 1, replayed: false });
    const host: ScreenHost = {
      url: 'https://host.test',
      screenshot: () => Promise.resolve(shot),
      elements: () => Promise.resolve(null),
      act,
      lookupAction: jest.fn(),
      health: jest.fn(),
      probe: jest.fn(),
    };
    expect(redactingHost(host, [])).toBe(host);
    const redacting = redactingHost(host, [REGION]);
    const taken = await redacting.screenshot();
    expect(taken.pngSha256).not.toBe(shot.pngSha256);
    expect(taken.hiddenSha256).toMatch(/^[0-9a-f]{64}$/);
    const action = { action: 'click' as const, x: 12, y: 6 };
    const frame = { expect: taken.frameSha256! };
    await redacting.act(action, 'key', frame);
    expect(act).toHaveBeenCalledWith(action, 'key', frame);
  });
});
