/**
 * An agent's `redact_regions` (issue 17 §2): rectangles blacked out in every screenshot Warden
 * keeps or shows (the store, the model, OCR, the console, notifications), never in what the host
 * acts on. The real frame stays the host's to compare (`X-Frame-SHA256`); what was under the
 * rectangles is kept only as a hash, so that Warden's own comparison still sees a change there.
 */
import { createHash } from 'node:crypto';
import type { OutlineElement, Rect } from '../actions/action.types';
import { underRegion } from '../actions/label-at';
import { Lru } from '../../common/lru';
import { blackOutRegions } from '../pixels/blacked-out';
import type { ScreenHost, Screenshot } from './screen-host.types';

/** A screenshot with the agent's regions blacked out. */
export type RedactedScreenshot = Screenshot & {
  frameSha256: string;
  pixelSha256: string;
  hiddenSha256: string;
};

/**
 * The host as the engine sees it for an agent with `redact_regions`: every screenshot redacted,
 * every outline without the texts under the regions; actions go to the host as they are. The
 * host itself when the agent redacts nothing.
 */
export function redactingHost(host: ScreenHost, regions: Rect[]): ScreenHost {
  if (regions.length === 0) return host;
  const key = JSON.stringify(regions);
  return {
    url: host.url,
    screenshot: async (options) => redactedOnce(await host.screenshot(options), regions, key),
    elements: async () => redactOutline(await host.elements(), regions),
    act: (action, key, frame) => host.act(action, key, frame),
    lookupAction: (key) => host.lookupAction(key),
    health: () => host.health(),
    probe: () => host.probe(),
  };
}

/**
 * Redacted screenshots by the SHA-256 of the host's PNG and the regions: a settled screen is shot
 * again and again, and its redaction (a decode and an encode, about 50 ms on 1280×800) is the same.
 */
const redacted = new Lru<string, RedactedScreenshot>(32);

function redactedOnce(shot: Screenshot, regions: Rect[], regionsKey: string): RedactedScreenshot {
  const key = `${shot.pngSha256}:${shot.width}x${shot.height}:${shot.frameSha256}:${regionsKey}`;
  const known = redacted.get(key);
  if (known) return known;
  const fresh = redactScreenshot(shot, regions);
  redacted.set(key, fresh);
  return fresh;
}

/**
 * The screenshot with `regions` (in the host's coordinate space, like actions) blacked out: a new
 * PNG and its SHA-256, the frame hash of the real pixels (the host's, or computed here for a host
 * that sends none) and the hash of what the regions hid. A PNG that does not decode is refused
 * with a ScreenError, as the store would refuse it.
 */
export function redactScreenshot(shot: Screenshot, regions: Rect[]): RedactedScreenshot {
  const space = { width: shot.width, height: shot.height };
  const out = blackOutRegions(shot.png, regions, space, shot.frameSha256);
  return {
    ...shot,
    png: out.png,
    pngSha256: createHash('sha256').update(out.png).digest('hex'),
    frameSha256: out.realPixelSha256,
    pixelSha256: out.pixelSha256,
    hiddenSha256: out.hiddenSha256,
  };
}

/**
 * The outline with every text of every element whose rect meets a region left out: its name, its
 * description and its value, read here once so that no consumer (a planner, a remote worker, the
 * injection rail, receipts, change lists, saved routines, the store) ever gets them. What is not
 * screen text stays: the id, role, rect, states, area and a status bar's message type (an error
 * message under a region still ends its write `refused_by_application`). The element is marked
 * `redacted`, so that the rules never take a missing label there for an absent one.
 */
export function redactOutline(
  outline: OutlineElement[] | null,
  regions: Rect[],
): OutlineElement[] | null {
  if (!outline) return outline;
  return outline.map((element) =>
    underRegion(element.rect, regions) ? withoutText(element) : element,
  );
}

function withoutText(element: OutlineElement): OutlineElement {
  const { value: _value, description: _description, ...rest } = element;
  return { ...rest, name: '', redacted: true };
}

/**
 * Why the screen counts as changed under the redacted regions (the real pixels there differ, or
 * the regions themselves were changed, added or removed), or null. Warden's own comparison of
 * redacted screenshots cannot see these pixels; this hash can.
 */
export function hiddenChange(
  judged: string | null | undefined,
  fresh: Pick<Screenshot, 'hiddenSha256'>,
): string | null {
  if ((judged ?? null) === (fresh.hiddenSha256 ?? null)) return null;
  if (!judged || !fresh.hiddenSha256) {
    return "the agent's redact_regions changed since the screen was judged";
  }
  return 'the screen changed under a redacted region';
}
