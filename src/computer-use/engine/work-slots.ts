/**
 * At most `size` pieces of work at once; the rest wait in order. A slot given back goes straight to
 * the next waiter, so the bound holds at every moment. `open()` lets every waiter through at once
 * (shutdown: the work then sees its abort signal and gives up quickly), and every later `take()`.
 */
export class WorkSlots {
  private busy = 0;
  private opened = false;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  /** Resolves when the caller holds a slot; give it back with `give()`. */
  take(): Promise<void> {
    if (this.opened || this.busy < this.size) {
      this.busy++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy--;
  }

  /** Lets everyone waiting, and everyone after, through: nothing waits any more. */
  open(): void {
    this.opened = true;
    for (const next of this.waiting.splice(0)) {
      this.busy++;
      next();
    }
  }

  /** How many hold a slot, and how many wait for one. */
  get load(): { busy: number; waiting: number } {
    return { busy: this.busy, waiting: this.waiting.length };
  }
}
