import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { buildConsoleFiles, CONSOLE_SOURCE, type BuiltConsole } from '../../scripts/build-console';
import { CONSOLE_FILES } from './console-assets';

/**
 * The console as it is built (scripts/build-console.ts, in memory here): the API serves exactly
 * the files the build makes, the bundle is made of every source file of src/console/browser/, and
 * neither the sources nor the bundle turn strings into HTML or code (the page's CSP and Trusted
 * Types enforce that too, in the browser). `npm run typecheck` checks the sources' types.
 */
describe('the console as built', () => {
  let built: BuiltConsole;
  beforeAll(async () => {
    built = await buildConsoleFiles();
  });

  const sources = readdirSync(CONSOLE_SOURCE).filter((name) => /\.[jt]s$/.test(name));
  const HTML_OR_CODE =
    /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/;

  it('makes exactly the files the API serves', () => {
    expect([...built.files.keys()].sort()).toEqual(Object.keys(CONSOLE_FILES).sort());
  });

  it('bundles every source file of the console that has code to run, and of the rest only the protocol', () => {
    const own = built.inputs.filter((input) => input.startsWith('src/console/browser/'));
    const bundled = own.map((input) => input.replace('src/console/browser/', ''));
    // A file the bundle leaves out holds types only: nothing of it runs.
    for (const file of sources.filter((f) => !bundled.includes(f))) {
      const js = ts.transpileModule(readFileSync(join(CONSOLE_SOURCE, file), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, removeComments: true },
      }).outputText;
      expect({ file, js: js.replace(/\s+/g, ' ').trim() }).toEqual({ file, js: 'export {};' });
    }
    expect(bundled.length).toBeGreaterThan(sources.length / 2);
    expect(built.inputs.filter((input) => !own.includes(input)).sort()).toEqual([
      'packages/protocol/src/actions.ts',
      'packages/protocol/src/char-names.ts',
    ]);
  });

  it.each(sources)('%s builds no HTML or code from strings', (file) => {
    expect(readFileSync(join(CONSOLE_SOURCE, file), 'utf8')).not.toMatch(HTML_OR_CODE);
  });

  it('and neither does the bundle', () => {
    expect(built.files.get('app.js')?.toString('utf8')).not.toMatch(HTML_OR_CODE);
  });
});
