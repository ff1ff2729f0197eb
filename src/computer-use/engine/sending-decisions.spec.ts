import { PNG } from 'pngjs';
import { sha256Hex } from '../../common/sha256';
import type { SendGate } from '../runs/send-gate';
import { type Decoded, VolatileMask } from '../pixels/pixels';
import { encodeScreenPng } from '@warden/protocol';
import type { Screenshot } from '../host-client/screen-host.client';
import {
  afterRefusal,
  LOOSENING_GONE,
  notMarked,
  resendRefused,
  SCRIPT_NOT_GRANTED,
  screenChange,
  sentOtherwise,
} from './sending-decisions';

const W = 8;
const H = 6;

function solid(): Decoded {
  const rgba = Buffer.alloc(W * H * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([240, 240, 240, 255], i);
  return { width: W, height: H, rgba };
}

function withPixel(img: Decoded, x: number, y: number): Decoded {
  const rgba = Buffer.from(img.rgba);
  rgba.set([10, 20, 30, 255], (y * W + x) * 4);
  return { ...img, rgba };
}

const encodeOf = (img: Decoded): Buffer => encodeScreenPng(img.rgba, img.width, img.height);

/** The same pixels in other PNG bytes than encodeScreenPng's. */
function otherEncoding(img: Decoded): Buffer {
  const png = new PNG({ width: img.width, height: img.height });
  img.rgba.copy(png.data);
  return PNG.sync.write(png);
}

/** A screenshot as the host client returns it; `space` is its X-Screen-Width/Height. */
function shot(png: Buffer, extra: Partial<Screenshot> = {}, space = { width: W, height: H }) {
  return {
    png,
    pngSha256: sha256Hex(png),
    width: space.width,
    height: space.height,
    pngWidth: W,
    pngHeight: H,
    frameSha256: null,
    ...extra,
  } satisfies Screenshot;
}

/** A mask of the one pixel (x, y). */
function maskAt(x: number, y: number): VolatileMask {
  const bits = new Uint8Array(Math.ceil((W * H) / 8));
  const i = y * W + x;
  bits[i >> 3] |= 1 << (i & 7);
  return VolatileMask.fromBits(W, H, bits);
}

describe('is this still the screen the action was judged or approved on', () => {
  const heldPng = encodeOf(solid());
  const held = { pngSha256: sha256Hex(heldPng), hiddenSha256: null };
  const none = { mask: null, ignoreRegions: [] };
  const loads = () => {
    const calls: number[] = [];
    return {
      calls,
      load: (png: Buffer | null) => () => {
        calls.push(1);
        return Promise.resolve(png);
      },
    };
  };

  it('equal PNG bytes are the same screen, without loading the held PNG', async () => {
    const { calls, load } = loads();
    await expect(screenChange(held, load(heldPng), shot(heldPng), none)).resolves.toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('compares the pixels where the bytes differ or the held bytes are not known', async () => {
    const { calls, load } = loads();
    const sameOther = shot(otherEncoding(solid()));
    expect(sameOther.pngSha256).not.toBe(held.pngSha256);
    await expect(screenChange(held, load(heldPng), sameOther, none)).resolves.toBeNull();
    await expect(
      screenChange({ hiddenSha256: null }, load(heldPng), shot(heldPng), none),
    ).resolves.toBeNull();
    expect(calls).toHaveLength(2);
  });

  it('sends onto pixels changed only inside the volatile mask or an ignore region', async () => {
    const fresh = shot(encodeOf(withPixel(solid(), 3, 2)));
    const load = () => Promise.resolve(heldPng);
    await expect(
      screenChange(held, load, fresh, { mask: maskAt(3, 2), ignoreRegions: [] }),
    ).resolves.toBeNull();
    const region = { x: 3, y: 2, width: 1, height: 1 };
    await expect(
      screenChange(held, load, fresh, { mask: null, ignoreRegions: [region] }),
    ).resolves.toBeNull();
    // Regions are in the host's coordinate space: on a 2x screen (4x3) the pixel is at (1, 1).
    const hiDpi = shot(fresh.png, {}, { width: W / 2, height: H / 2 });
    await expect(
      screenChange(held, load, hiDpi, {
        mask: null,
        ignoreRegions: [{ x: 1, y: 1, width: 1, height: 1 }],
      }),
    ).resolves.toBeNull();
  });

  const changed: Array<[string, Parameters<typeof screenChange>, string | RegExp]> = [
    [
      'a pixel outside every exclusion',
      [
        held,
        () => Promise.resolve(heldPng),
        shot(encodeOf(withPixel(solid(), 3, 2))),
        { mask: maskAt(4, 2), ignoreRegions: [{ x: 0, y: 0, width: 2, height: 2 }] },
      ],
      /^1 pixel changed at \(3, 2\), outside the volatile mask \(1 pixel\) and 1 ignore region$/,
    ],
    [
      'the same bytes, but the real pixels under a redacted region changed',
      [
        { ...held, hiddenSha256: 'a'.repeat(64) },
        () => Promise.resolve(heldPng),
        shot(heldPng, { hiddenSha256: 'b'.repeat(64) }),
        none,
      ],
      'the screen changed under a redacted region',
    ],
    [
      'the agent redacts now, and did not when the action was judged',
      [held, () => Promise.resolve(heldPng), shot(heldPng, { hiddenSha256: 'b'.repeat(64) }), none],
      "the agent's redact_regions changed since the screen was judged",
    ],
    [
      'the agent redacted when the action was judged, and no longer does',
      [
        { ...held, hiddenSha256: 'a'.repeat(64) },
        () => Promise.resolve(heldPng),
        shot(heldPng),
        none,
      ],
      "the agent's redact_regions changed since the screen was judged",
    ],
    [
      'the held screenshot is not in the store',
      [held, () => Promise.resolve(null), shot(otherEncoding(solid())), none],
      'the held screenshot is missing',
    ],
  ];

  it.each(changed)('refuses to send: %s', async (_, args, why) => {
    const found = await screenChange(...args);
    if (typeof why === 'string') expect(found).toBe(why);
    else expect(found).toMatch(why);
  });
});

const open: SendGate = {
  runStatus: 'running',
  enabled: true,
  agentConfigured: true,
  killEngaged: false,
  killReason: null,
  paused: false,
  pauseReason: null,
  approvalSpent: true,
  maskSettled: true,
  writesNeedApproval: false,
  scriptAsGranted: true,
  stagesTyping: false,
  secretGranted: true,
  looseningInForce: true,
};

describe('a send the gate did not mark sending', () => {
  const needs = { ...open, writesNeedApproval: true };
  /** As toGate reads a no-approval agent's step planned by another script than the one granted. */
  const ungranted = { ...open, writesNeedApproval: true, scriptAsGranted: false };
  const cases: Array<[string, SendGate | null, boolean, { hold: string } | null]> = [
    [
      'an unapproved write, writes needing approval again',
      needs,
      true,
      {
        hold: "the agent's writes need approval again",
      },
    ],
    [
      'a read whose weakening is gone',
      { ...needs, looseningInForce: false },
      false,
      {
        hold: LOOSENING_GONE,
      },
    ],
    [
      'an unapproved write of a no-approval agent, not planned by the script granted',
      ungranted,
      true,
      { hold: SCRIPT_NOT_GRANTED },
    ],
    [
      'a read whose weakening is gone, not planned by the script granted',
      { ...ungranted, looseningInForce: false },
      false,
      { hold: LOOSENING_GONE },
    ],
    ['a read whose weakening holds, not planned by the script granted', ungranted, false, null],
    ['a read whose weakening holds', needs, false, null],
    ['writes need no approval', { ...open, looseningInForce: false }, true, null],
    ['the run was stopped', { ...needs, runStatus: 'stopped' }, true, null],
    ['the run is gone', null, true, null],
  ];
  it.each(cases)('%s', (_, gate, unapprovedWrite, expected) => {
    expect(notMarked(gate, unapprovedWrite)).toEqual(expected);
  });
});

describe('as what a send the gate let go is recorded', () => {
  const cases: Array<[string, SendGate | null, boolean | undefined, unknown, string | null]> = [
    [
      'a staged edit, the agent still staging typing',
      { ...open, stagesTyping: true },
      true,
      null,
      null,
    ],
    ['a staged edit, the agent no longer staging typing', open, true, null, 'staged'],
    ['a staged edit, no gate read', null, true, null, 'staged'],
    ['a read by a weakening still in force', open, false, { unlabelled_clicks: 'read' }, null],
    [
      'a read by a weakening no longer in force',
      { ...open, looseningInForce: false },
      false,
      {
        unlabelled_clicks: 'read',
      },
      'loosened',
    ],
    [
      'an action no weakening made a read',
      { ...open, looseningInForce: false },
      undefined,
      null,
      null,
    ],
  ];
  it.each(cases)('%s', (_, gate, staged, loosening, expected) => {
    expect(sentOtherwise(gate, staged, loosening)).toBe(expected);
  });
});

describe("the host's refusal to act", () => {
  it.each([
    ['screen_changed', 0, { changed: 'the screen changed before the host could act' }],
    ['screen_changed', 1, { changed: 'the screen changed before the host could act' }],
    ['frame_unknown', 0, 'recheck'],
    ['frame_unknown', 1, { changed: 'the screen host lost the frame twice' }],
    ['timeout', 0, 'failed'],
    ['http', 1, 'failed'],
  ] as const)('%s on try %d', (kind, tries, expected) => {
    expect(afterRefusal(kind, tries)).toEqual(expected);
  });
});

describe('sending again what the host had not performed', () => {
  const read = { approved: false, write: false, staged: false };
  const unapproved = { approved: false, write: true, staged: false };
  const needs = { ...open, writesNeedApproval: true };
  /** As toGate reads a no-approval agent's step planned by another script than the one granted. */
  const ungranted = { ...open, writesNeedApproval: true, scriptAsGranted: false };
  const cases: Array<[string, SendGate | null, typeof read, string | null]> = [
    ['a read on a running run', needs, read, null],
    ['an approved write, writes needing approval', needs, { ...unapproved, approved: true }, null],
    ['an unapproved write, writes needing none', open, unapproved, null],
    [
      'an unapproved write, not planned by the script granted',
      ungranted,
      unapproved,
      'needs_approval',
    ],
    [
      'a staged edit, the agent still staging typing',
      { ...needs, stagesTyping: true },
      {
        ...unapproved,
        staged: true,
      },
      null,
    ],
    [
      'a staged edit, the agent no longer staging typing',
      needs,
      { ...unapproved, staged: true },
      'needs_approval',
    ],
    ['an unapproved write, writes needing approval again', needs, unapproved, 'needs_approval'],
    ['the run ended', { ...open, runStatus: 'stopped' }, read, 'run_ended'],
    ['the run is gone', null, { ...unapproved, approved: true }, 'run_ended'],
  ];
  it.each(cases)('%s', (_, gate, facts, expected) => {
    expect(resendRefused(gate, facts)).toBe(expected);
  });
});
