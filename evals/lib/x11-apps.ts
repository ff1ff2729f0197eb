/**
 * The applications an x11 eval task runs on, each started afresh for a run, each with its own
 * record of what happened there, read with its own means:
 * - `tk-form`: the Tk test program of the screen host's own tests (tk_form.py), whose log has
 *   every input it got and every button it pressed;
 * - `gnucash`: GnuCash 4.13 on a fresh book (test/support/gnucash.ts), whose saved book is read
 *   back with GnuCash's engine (python3-gnucash);
 * - `libreoffice-calc`: LibreOffice Calc on a fresh CSV file (test/support/libreoffice.ts), read
 *   back by a headless LibreOffice of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/processes';
import { readTransactions, startGnuCash } from '../../test/support/gnucash';
import { readSheet, startCalc } from '../../test/support/libreoffice';
import type { SimEventRecord } from './tally';
import type { EventMatcher, X11AppName } from './task';
import { stopChild } from '../../test/support/children';
import { jsonLines, type X11Screen } from '../../test/support/x11-screen';
import { until } from '../../test/support/until';

export interface X11App {
  /** What the agent's config calls the system. */
  system: string;
  /** The application's own record: its log, or what it saved, read back by its own means. */
  events(): Promise<SimEventRecord[]>;
  /**
   * A committing button the record shows each press of (the Tk form's Save): more presses than
   * approved clicks are writes nobody approved. Null where the record shows no presses.
   */
  commits: EventMatcher | null;
  stop(): Promise<void>;
}

const TK_FORM = join(ROOT, 'screen-host', 'test', 'fixtures', 'tk_form.py');
/** The sheet Calc opens when the task names none. */
const DEFAULT_ROWS = [['Item', 'Amount']];

function python(): string {
  return existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

const numbered = (events: Array<Record<string, unknown>>): SimEventRecord[] =>
  events.map((e, i) => ({ ...e, seq: i + 1, type: String(e.type) }));

async function tkForm(display: string, dir: string): Promise<X11App> {
  const log = join(dir, 'tk.log');
  const app: ChildProcess = spawn(python(), [TK_FORM, log], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DISPLAY: display },
    stdio: 'ignore',
  });
  await until(
    'Tk program ready',
    () => jsonLines(log).find((l) => l.type === 'ready'),
    15_000,
    100,
  );
  return {
    system: 'Tk form (x11)',
    events: async () => numbered(jsonLines(log)),
    commits: { type: 'button', name: 'Save' },
    stop: () => stopChild(app),
  };
}

async function gnucash(display: string, dir: string): Promise<X11App> {
  const app = await startGnuCash(display, dir);
  return {
    system: 'GnuCash 4.13 (Debian)',
    events: async () =>
      numbered([{ type: 'book', transactions: await readTransactions(app.book) }]),
    commits: null,
    stop: () => app.close(),
  };
}

async function calc(screen: X11Screen, dir: string, start: AppStart): Promise<X11App> {
  // Where the host serves no outline nothing tells where Calc places its widgets: the pointer
  // moves over it once.
  const outline = start.outline ? () => screen.elements() : undefined;
  const app = await startCalc(screen.display, dir, start.rows ?? DEFAULT_ROWS, outline);
  return {
    system: 'LibreOffice Calc 7.4 (Debian)',
    events: async () => numbered([{ type: 'sheet', rows: await readSheet(app.file) }]),
    commits: null,
    stop: () => app.close(),
  };
}

/** What an application starts with: whether the host serves an outline, Calc's rows. */
export interface AppStart {
  outline: boolean;
  rows?: string[][];
}

/** Starts `name` on `screen`, its files in a fresh folder of the screen's. */
export function startApp(name: X11AppName, screen: X11Screen, start: AppStart): Promise<X11App> {
  const own = mkdtempSync(join(screen.dir, `${name}-`));
  switch (name) {
    case 'tk-form':
      return tkForm(screen.display, own);
    case 'gnucash':
      return gnucash(screen.display, own);
    case 'libreoffice-calc':
      return calc(screen, own, start);
  }
}
