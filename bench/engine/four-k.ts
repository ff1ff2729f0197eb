/**
 * 4k: the read script on the one 3840×2160 sim host (sim-4k.ts), one run after another, as
 * reads-1 on 1280×800: Warden's overhead per step on screens of 4K. Beside it, the pixel work of
 * one of these screenshots, measured in this process after the runs: decoding the PNG and making
 * the model's image of it (decode, downscale to the model's size, encode), which a model
 * planner's step pays and a scripted one does not.
 */
import { downscalePng } from '../../src/computer-use/models/downscale';
import { scaleFor } from '../../src/computer-use/models/scaling';
import { decodePng } from '../../src/computer-use/pixels/pixels';
import type { ProcessStack, StackHost } from '../../test/support/process-stack';
import { prepareHosts, startRuns } from './calls';
import { percentiles } from './figures';
import { measureReads } from './reads';
import { ENDED, waitForRuns } from './records';
import type { PixelWork, ScenarioResult } from './result';
import { HEIGHT_4K, Sim4k, WIDTH_4K } from './sim-4k';

/** Runs of the read script on the 4K host, one after another. */
export const RUNS_4K = 3;

export async function fourK(stack: ProcessStack, host: StackHost): Promise<ScenarioResult> {
  const result = await measureReads(stack, '4k', async () => {
    const ids: string[] = [];
    for (let i = 0; i < RUNS_4K; i++) {
      prepareHosts([host], `4k run ${i + 1}`);
      const [id] = await startRuns(stack, [host], 'bench 4k: read the menu');
      await waitForRuns(stack, [id], ENDED);
      ids.push(id);
    }
    return ids;
  });
  return { ...result, pixel_work: await pixelWork(Sim4k.drawnPngs()) };
}

/** CPU ms of `work` (user and system, every thread of this process: libuv's pool counts). */
async function cpuMs(work: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Decode and model image of each screenshot once (after one unmeasured), medians over them. */
async function pixelWork(pngs: Buffer[]): Promise<PixelWork> {
  const { model } = scaleFor({ width: WIDTH_4K, height: HEIGHT_4K });
  const decode: number[] = [];
  const downscale: number[] = [];
  if (pngs.length > 0) {
    decodePng(pngs[0]);
    await downscalePng(pngs[0], model);
  }
  for (const png of pngs) {
    decode.push(await cpuMs(() => decodePng(png)));
    downscale.push(await cpuMs(() => downscalePng(png, model)));
  }
  const bytes = pngs.reduce((sum, p) => sum + p.length, 0);
  return {
    screen: `${WIDTH_4K}x${HEIGHT_4K}`,
    screenshots: pngs.length,
    png_kib: pngs.length ? Math.round(bytes / pngs.length / 1024) : 0,
    decode_ms: percentiles(decode).p50 ?? 0,
    model_image: `${model.width}x${model.height}`,
    downscale_ms: percentiles(downscale).p50 ?? 0,
  };
}
