/**
 * LibreOffice Calc (Debian's 7.4 with its GTK 3 UI: libreoffice-calc and libreoffice-gtk3), a real
 * application nobody here wrote, on an X display: a profile of its own (`-env:UserInstallation`,
 * so no other LibreOffice and no earlier run is in the way; no tip of the day, no restore of an
 * earlier session), a CSV file opened at start, and that file read back with LibreOffice's own
 * means: a separate headless soffice, with a profile of its own too, converting it to CSV.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import type { OutlineElement } from '@warden/protocol';
import { stopGroup } from './children';
import { until } from './until';

const run = promisify(execFile);

/** Comma-separated, double-quoted text, UTF-8 (76), from the first line: how the file is read. */
export const CSV_FILTER = 'CSV:44,34,76,1';

/** What a first start would otherwise open over the window. */
const REGISTRY = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

/** A LibreOffice profile of its own in `dir`, as a file URL for `-env:UserInstallation`. */
function profile(dir: string): string {
  mkdirSync(join(dir, 'user'), { recursive: true });
  writeFileSync(join(dir, 'user', 'registrymodifications.xcu'), REGISTRY);
  return `-env:UserInstallation=file://${dir}`;
}

/**
 * The environment LibreOffice runs in: a HOME of its own; on a display, its GTK 3 UI (which
 * publishes its widgets on the accessibility bus); headless, none (a UI plugin there fails).
 */
function environment(home: string, display?: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    LANG: 'C.UTF-8',
    ...(display ? { DISPLAY: display, SAL_USE_VCLPLUGIN: 'gtk3' } : {}),
  };
}

/** Rows as text, in CSV (every field quoted where it must be). */
export function csvOf(rows: readonly (readonly string[])[]): string {
  const field = (f: string) => (/[",\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
  return rows.map((r) => r.map(field).join(',')).join('\n') + '\n';
}

/** The rows of CSV text: fields split on commas outside double quotes, `""` a quote. */
export function rowsOf(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i];
    if (quoted) {
      if (c === '"' && csv[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && csv[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

export interface Calc {
  /** The CSV file it opened, and saves to. */
  file: string;
  process: ChildProcess;
  close(): Promise<void>;
}

/**
 * Whether LibreOffice's own widgets are where GTK's are: the Name Box, a GTK field, lies in the
 * formula bar, one of LibreOffice's toolbars. LibreOffice 7.4's GTK 3 UI places its own widgets
 * (toolbars, sheet, status bar) on the screen from where it thinks its window's content starts,
 * and before the first pointer event there it leaves out GTK's menu bar above them: all of them
 * 25 px too high in the outline (a click aimed at the cell A2 lands on A1).
 */
export function placedRight(outline: readonly OutlineElement[] | null): boolean {
  const bar = outline?.find((e) => e.role === 'toolbar' && e.name === 'Formula Tool Bar');
  const nameBox = outline?.find(
    (e) => e.role === 'textbox' && e.area === 'toolbar' && /^[A-Z]+[0-9]+$/.test(e.value ?? ''),
  );
  if (!bar || !nameBox) return false;
  const [r, o] = [nameBox.rect, bar.rect];
  return r.y >= o.y && r.y + r.height <= o.y + o.height && r.x >= o.x;
}

/**
 * Starts Calc on `display` with `rows` in a fresh CSV file in `dir`, once its window shows; then,
 * given the host's outline, moves the pointer over the window until LibreOffice places its own
 * widgets right (placedRight).
 */
export async function startCalc(
  display: string,
  dir: string,
  rows: readonly (readonly string[])[],
  outline?: () => Promise<OutlineElement[] | null>,
): Promise<Calc> {
  const home = join(dir, 'calc-home');
  mkdirSync(home, { recursive: true });
  const file = join(dir, 'sheet.csv');
  writeFileSync(file, csvOf(rows));
  let err = '';
  // A process group of its own: soffice is a script that starts oosplash, which starts soffice.bin.
  const app: ChildProcess = spawn(
    'soffice',
    [
      ...['--calc', '--norestore', '--nologo', '--nolockcheck', `--infilter=${CSV_FILTER}`],
      profile(join(dir, 'calc-profile')),
      file,
    ],
    { env: environment(home, display), stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  app.stderr?.on('data', (d: Buffer) => (err = (err + String(d)).slice(-4000)));
  const close = () => stopGroup(app);
  try {
    const xdotool = (...args: string[]) =>
      run('xdotool', args, { env: { ...process.env, DISPLAY: display } });
    const window = await until(
      'LibreOffice Calc window',
      async () => {
        if (app.exitCode !== null) throw new Error(`LibreOffice exited: ${err}`);
        const found = await xdotool('search', '--onlyvisible', '--name', 'LibreOffice Calc').catch(
          () => null,
        );
        return found?.stdout.trim().split('\n')[0] || null;
      },
      90_000,
      100,
    );
    const geometry = (await xdotool('getwindowgeometry', '--shell', window)).stdout;
    const [x, y, width, height] = ['X', 'Y', 'WIDTH', 'HEIGHT'].map((k) =>
      Number(new RegExp(`^${k}=(\\d+)$`, 'm').exec(geometry)?.[1] ?? 0),
    );
    let nudge = 0;
    await until(
      'LibreOffice placing its widgets where they are',
      async () => {
        // Over the sheet, a little elsewhere each time: a pointer that does not move sends nothing.
        nudge = (nudge + 7) % 70;
        const px = String(Math.round(x + width / 2 + nudge));
        const py = String(Math.round(y + height / 2 + nudge));
        await xdotool('mousemove', px, py);
        if (!outline) return true;
        return placedRight(await outline().catch(() => null)) || null;
      },
      60_000,
      100,
    );
    return { file, process: app, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The rows of `file` as LibreOffice reads them: a headless soffice with a profile of its own
 * converts it to CSV in a folder of its own.
 */
export async function readSheet(file: string): Promise<string[][]> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-calc-read-'));
  try {
    const out = join(dir, 'out');
    const said = await run(
      'soffice',
      [
        ...['--headless', '--norestore', `--infilter=${CSV_FILTER}`],
        profile(join(dir, 'profile')),
        ...['--convert-to', 'csv', '--outdir', out, file],
      ],
      { env: environment(dir), timeout: 120_000 },
    );
    const converted = join(out, basename(file));
    if (!existsSync(converted)) {
      throw new Error(`LibreOffice converted nothing: ${said.stdout} ${said.stderr}`.trim());
    }
    return rowsOf(readFileSync(converted, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
