/**
 * The sim's screens as pixels, for the unit specs that read them (title bar, dialog check): the
 * sim app after some actions (and a popup), rendered by its own renderer, as RGBA.
 */
import { checkAction as checkHostAction } from '../../screen-host/src/actions';
import { SimApp } from '../../screen-host/src/backends/sim/sim-app';
import type { SimLang } from '../../screen-host/src/backends/sim/sim-labels';
import { renderSim } from '../../screen-host/src/backends/sim/sim-render';
import type { RgbaImage } from '../../src/computer-use/ocr/glyph-components';

export const SIM_SIZE = { width: 1280, height: 800 };

/** The sim after these actions (checked as the host checks them), and its screen's pixels. */
export function simAfter(
  lang: SimLang,
  actions: unknown[],
  popup?: { title: string; message: string; buttons: string[] },
): { app: SimApp; image: RgbaImage } {
  const app = new SimApp(lang);
  for (const body of actions) {
    const checked = checkHostAction(body, SIM_SIZE);
    if (!checked.ok) throw new Error(checked.reason);
    app.perform(checked.action);
  }
  if (popup) app.openPopup(popup);
  return { app, image: pixelsOf(app) };
}

/** The sim app's screen as RGBA. */
export function pixelsOf(app: SimApp): RgbaImage {
  const data = renderSim(app, false).data();
  return { ...SIM_SIZE, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** `/nTX` and Enter: open a transaction from the command field. */
export const go = (tx: string) => [
  { action: 'type', text: `/n${tx}` },
  { action: 'key', key: 'Enter' },
];
