/**
 * The sim as the bench, the eval and the scale-out test run it, many hosts in one process. Two
 * things differ from a plain sim, both for the measurement's sake and neither touching Warden:
 * - it records the moment each action reached it, by this process's clock (performance.now()):
 *   the host's side of `POST /action`;
 * - every such host shares one rendering of each state (drawing and encoding a new state takes
 *   about 35 ms of CPU, and 50 hosts drawing on a 2-core machine would take the CPU from the very
 *   processes being measured; in production the hosts are other machines), and its PNGs carry a
 *   text chunk naming the host and the scenario. So to Warden every run's screens are files of
 *   their own, with their own SHA-256, decoded and hashed as in production.
 */
import type { Screenshot } from '../../screen-host/src';
import { withTextChunk } from '../../screen-host/src/backends/sim/png-text-chunk';
import { SimBackend, type SimRender } from '../../screen-host/src/backends/sim/sim-backend';

/**
 * Renders of sim states (PNG and pixels), shared by every host of this process: drawing the sim
 * is not Warden's work. At most 64 (4 MB of pixels each); a scenario shows far fewer states.
 */
const renders = new Map<string, SimRender>();

export class BenchSim extends SimBackend {
  readonly performedAt: number[] = [];
  /** Named in every PNG this host serves; set before each scenario (prepare). */
  private tag = '';
  /** The screenshot of the current state, until an action, a reset, a poke or a popup changes it. */
  private shot: Promise<Screenshot> | null = null;

  prepare(tag: string): void {
    this.reset();
    this.tag = tag;
    this.shot = null;
  }

  protected override draw(): SimRender {
    const key = this.renderKey();
    let render = renders.get(key);
    if (!render) {
      render = super.draw();
      renders.set(key, render);
      if (renders.size > 64) renders.delete(renders.keys().next().value!);
    }
    return render;
  }

  override screenshot(): Promise<Screenshot> {
    this.shot ??= super
      .screenshot()
      .then((shot) => ({ ...shot, png: withTextChunk(shot.png, this.tag) }));
    return this.shot;
  }

  override async perform(action: Parameters<SimBackend['perform']>[0]): Promise<void> {
    this.performedAt.push(performance.now());
    this.shot = null;
    return super.perform(action);
  }

  override reset(): void {
    this.shot = null;
    super.reset();
  }

  override poke(message: string, faint = false): void {
    this.shot = null;
    super.poke(message, faint);
  }

  override popup(popup: Parameters<SimBackend['popup']>[0]): void {
    this.shot = null;
    super.popup(popup);
  }
}
