import { Monitor } from 'node-screenshots';
import { encodeScreenPng } from '../src/png';
process.env.DISPLAY = ':0';
(async () => {
  const m = Monitor.all()[0];
  const time = async (name: string, f: () => Promise<unknown> | unknown) => { for (let i = 0; i < 5; i++) await f(); const s: number[] = []; for (let i = 0; i < 40; i++) { const t = performance.now(); await f(); s.push(performance.now() - t); } s.sort((a, b) => a - b); console.log(name, s[20].toFixed(2), s[39].toFixed(2)); };
  await time('captureImage', () => m.captureImage());
  await time('captureImageSync', () => m.captureImageSync());
  const img = await m.captureImage();
  await time('toPng', () => img.toPng());
  await time('toPng copy', () => img.toPng(true));
  await time('toRaw', () => img.toRaw());
  await time('toRawSync', () => img.toRawSync());
  const raw = img.toRawSync();
  await time('encodeScreenPng', () => encodeScreenPng(raw, img.width, img.height));
  await time('capture+raw+enc', async () => { const i = await m.captureImage(); const r = await i.toRaw(); return encodeScreenPng(r, i.width, i.height); });
  await time('capture+png', async () => { const i = await m.captureImage(); return i.toPng(); });
  console.log((await img.toPng()).length, encodeScreenPng(raw, img.width, img.height).length);
})();
