/**
 * The sim as the eval runs it: the bench's sim (one rendering of each state shared, PNGs tagged per
 * run) plus a task's start state: a message in the status bar at the start or when a screen first
 * shows, and a dialog that opens while the planner thinks. Nothing here touches Warden: these are
 * things the system on the screen does by itself.
 */
import type { RawFrame } from '../../screen-host/src/frames';
import { BenchSim } from '../../test/support/bench-sim';
import type { TaskStart } from './task';

export class EvalSim extends BenchSim {
  private start: TaskStart = {};
  private poked = false;
  private popped = false;

  /** Resets the sim to its first screen and arms the task's start state. */
  begin(tag: string, start: TaskStart): void {
    this.prepare(tag);
    this.start = start;
    this.poked = false;
    this.popped = false;
    if (start.poke) this.poke(start.poke);
  }

  override async perform(action: Parameters<BenchSim['perform']>[0]): Promise<void> {
    await super.perform(action);
    const on = this.start.poke_on;
    if (on && !this.poked && this.app.state.screen === on.screen) {
      this.poked = true;
      this.poke(on.message);
    }
  }

  /**
   * The host's look at the screen right before it acts (the frame precondition): the dialog opens
   * just before it, as if it had opened while the planner was thinking. The action was judged on a
   * frame without it, so the host must refuse it `screen_changed`.
   */
  override async capture(): Promise<RawFrame> {
    const on = this.start.popup_on;
    if (on && !this.popped && !this.app.state.popup && this.app.state.screen === on.screen) {
      this.popped = true;
      this.popup({ title: on.title, message: on.message, buttons: on.buttons });
    }
    return super.capture();
  }
}
