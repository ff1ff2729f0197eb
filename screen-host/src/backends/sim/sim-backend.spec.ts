import { frameSha256 } from '@warden/protocol';
import { PNG } from 'pngjs';
import { checkAction } from '../../actions';
import { SimBackend } from './sim-backend';

function pixelHash(png: Buffer): string {
  const decoded = PNG.sync.read(png);
  return frameSha256(decoded.width, decoded.height, decoded.data);
}

async function act(sim: SimBackend, body: unknown): Promise<void> {
  const checked = checkAction(body, sim.size());
  if (!checked.ok) throw new Error(checked.reason);
  await sim.perform(checked.action);
}

describe('SimBackend frames', () => {
  it('hands over the pixels its PNG decodes to, and captures the same frame', async () => {
    const sim = new SimBackend();
    const seen = new Set<string>();
    const check = async () => {
      const shot = await sim.screenshot();
      expect(shot.frame).toBeDefined();
      expect(shot.frame!.sha256).toBe(pixelHash(shot.png));
      expect([shot.frame!.width, shot.frame!.height]).toEqual([1280, 800]);
      expect((await sim.capture()).sha256).toBe(shot.frame!.sha256);
      seen.add(shot.frame!.sha256);
    };
    await check();
    await act(sim, { action: 'type', text: '/nVA02' });
    await check();
    await act(sim, { action: 'key', key: 'Enter' });
    await check();
    sim.popup({ title: 'Save changes?', message: 'Save the order?', buttons: ['Yes', 'No'] });
    await check();
    sim.poke('a message');
    await check();
    expect(seen.size).toBe(5);
    await sim.close();
  });

  it.each([
    [6, 'its pixels were let go (the PNG is still cached)'],
    [20, 'it fell out of the cache'],
  ])('after %i other states, draws the first again to the same frame: %s', async (others) => {
    const sim = new SimBackend();
    const first = await sim.screenshot();
    for (let i = 0; i < others; i++) {
      await act(sim, { action: 'type', text: String(i % 10) });
      await sim.screenshot();
    }
    sim.reset();
    const again = await sim.screenshot();
    expect(again.frame!.sha256).toBe(first.frame!.sha256);
    expect(again.frame!.rgba).not.toBe(first.frame!.rgba);
    expect(again.png.equals(first.png)).toBe(true);
    await sim.close();
  });
});
