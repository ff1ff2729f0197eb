import { inflateSync } from 'node:zlib';
import { SimBackend } from '../screen-host/src/backends/sim/sim-backend';
import { checkPngData } from '../src/computer-use/screens/png-decoder';
import { pngPixelFacts } from '../src/computer-use/screens/pixels';
(async () => {
  const { png } = (await new SimBackend().screenshot()) as any;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) { const len = png.readUInt32BE(at); if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + len)); at += 12 + len; }
  const z = Buffer.concat(idat);
  const expected = inflateSync(z).length;
  const time = (name: string, f: () => unknown) => { for (let i = 0; i < 5; i++) f(); const t: number[] = []; for (let i = 0; i < 40; i++) { const s = performance.now(); f(); t.push(performance.now() - s); } t.sort((a, b) => a - b); console.log(name.padEnd(40), t[20].toFixed(2), 'ms'); };
  time('inflate default', () => inflateSync(z));
  time('inflate chunk=expected,max', () => inflateSync(z, { chunkSize: expected, maxOutputLength: expected }));
  time('inflate max only', () => inflateSync(z, { maxOutputLength: expected }));
  time('inflate chunk 256k', () => inflateSync(z, { chunkSize: 256 * 1024, maxOutputLength: expected }));
  time('checkPngData', () => checkPngData(png));
  time('pngPixelFacts', () => pngPixelFacts(png));
  console.log('png', png.length, 'idat', z.length, 'raw', expected);
})();
