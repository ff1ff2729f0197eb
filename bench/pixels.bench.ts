/**
 * npm run bench:pixels — what one screenshot costs Warden's worker in pixel work, by screen size:
 * decoding the PNG, the pixel SHA-256, encoding a PNG (a redacted screen, the model's image), and
 * the model's image itself (decode, downscale to the model's size, encode: `downscalePng`).
 *
 * The screens are the sim's first screen (SAP Easy Access) scaled up by nearest neighbour to
 * each size, so they are as flat as a real form at that size; each PNG is the screen host's
 * encoding. Every figure is the median CPU time of `--runs` (default 7) after one unmeasured run,
 * in one process; quote ratios between commits, measured back to back, not absolute times.
 *
 * `--json` prints the numbers as one JSON object as well.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { SimBackend } from '../screen-host/src/backends/sim/sim-backend';
import { encodeScreenPng } from '@warden/protocol';
import { decodePng, pixelSha256 } from '../src/computer-use/pixels/pixels';
import { downscalePng } from '../src/computer-use/models/downscale';
import { scaleFor } from '../src/computer-use/models/scaling';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 3840, height: 2160 },
];

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, json: { type: 'boolean', default: false } },
});
const RUNS = Number(values.runs);

/**
 * The median CPU time of `work` in ms (user and system, all threads of this process: the deflate
 * on libuv's pool counts), which other load on the machine disturbs far less than wall time.
 */
async function median(work: () => unknown): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.cpuUsage();
    await work();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)] * 10) / 10;
}

function scaledUp(
  source: { width: number; height: number; rgba: Uint8Array },
  width: number,
  height: number,
): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy = Math.floor((y * source.height) / height);
    for (let x = 0; x < width; x++) {
      const s = (sy * source.width + Math.floor((x * source.width) / width)) * 4;
      out.set(source.rgba.subarray(s, s + 4), (y * width + x) * 4);
    }
  }
  return out;
}

async function main(): Promise<void> {
  const first = decodePng((await new SimBackend('en').screenshot()).png);
  const results: Array<Record<string, number | string>> = [];
  for (const { width, height } of SIZES) {
    const rgba = scaledUp(first, width, height);
    const png = encodeScreenPng(rgba, width, height);
    const decoded = decodePng(png);
    const { model } = scaleFor({ width, height });
    results.push({
      screen: `${width}x${height}`,
      png_kib: Math.round(png.length / 1024),
      decode_ms: await median(() => decodePng(png)),
      pixel_sha256_ms: await median(() => pixelSha256(decoded)),
      encode_ms: await median(() => encodeScreenPng(decoded.rgba, width, height)),
      model_image: `${model.width}x${model.height}`,
      model_image_ms: await median(() => downscalePng(png, model)),
    });
  }
  console.log(
    `pixel work per screenshot, CPU ms, median of ${RUNS} (node ${process.version}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)})`,
  );
  console.table(results);
  if (values.json) console.log(JSON.stringify({ runs: RUNS, results }));
}

void main();
