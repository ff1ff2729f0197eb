/**
 * `npm run build:console`: the approvers' console, from its sources in src/console/browser/ to
 * the files the API serves from dist/console/ (src/console/console-assets.ts). esbuild bundles the
 * browser code from app.ts into one ES module, app.js, with what it imports of packages/protocol;
 * the page, its style sheet and its icon are copied as they are. `npm run build` runs it after
 * `nest build` (which empties dist/), the e2e tests' global setup before the tests (so they serve
 * the console of the sources they test), and `npm run demo` when the sources are newer.
 *
 * Not product code: nothing under src/ imports it at run time (esbuild is a devDependency).
 */
import { build } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './lib/processes';

/** The console's sources. */
export const CONSOLE_SOURCE = join(ROOT, 'src', 'console', 'browser');
/** Where the built console goes, and where the API serves it from. */
export const CONSOLE_OUT = join(ROOT, 'dist', 'console');

/** The files served as they are, besides the bundle. */
export const CONSOLE_STATIC = ['index.html', 'console.css', 'favicon.svg'] as const;

export interface BuiltConsole {
  /** The served files by name: the bundle and the static files. */
  files: Map<string, Buffer>;
  /** The source files the bundle was built from, relative to the repository. */
  inputs: string[];
}

/** Builds the console in memory: nothing is written. */
export async function buildConsoleFiles(): Promise<BuiltConsole> {
  const result = await build({
    entryPoints: [join(CONSOLE_SOURCE, 'app.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // The browsers the console supports: current Chromium, Firefox and Safari.
    target: ['es2022'],
    tsconfig: join(CONSOLE_SOURCE, 'tsconfig.json'),
    // Readable in a browser's developer tools; comments and types are gone, so it is still smaller
    // than its sources.
    minify: false,
    legalComments: 'none',
    charset: 'ascii',
    write: false,
    metafile: true,
    outfile: join(CONSOLE_OUT, 'app.js'),
    logLevel: 'silent',
  });
  const files = new Map<string, Buffer>();
  for (const out of result.outputFiles) {
    files.set(relative(CONSOLE_OUT, out.path), Buffer.from(out.contents));
  }
  for (const name of CONSOLE_STATIC) files.set(name, readFileSync(join(CONSOLE_SOURCE, name)));
  return { files, inputs: Object.keys(result.metafile.inputs) };
}

/**
 * Builds the console into dist/console/, replacing the folder by a rename: an API starting
 * meanwhile reads the old console or the new one (or, for a moment, none), never half of each.
 */
export async function buildConsole(): Promise<BuiltConsole> {
  const built = await buildConsoleFiles();
  const next = `${CONSOLE_OUT}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  for (const [name, body] of built.files) writeFileSync(join(next, name), body);
  const old = `${CONSOLE_OUT}.old-${process.pid}`;
  rmSync(old, { recursive: true, force: true });
  try {
    renameSync(CONSOLE_OUT, old);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  renameSync(next, CONSOLE_OUT);
  rmSync(old, { recursive: true, force: true });
  return built;
}

if (require.main === module) {
  buildConsole().then(
    (built) => {
      const sizes = [...built.files].map(([name, body]) => `${name} ${body.length} bytes`);
      console.log(`console built into ${relative(ROOT, CONSOLE_OUT)}/: ${sizes.join(', ')}`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
