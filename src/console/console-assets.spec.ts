import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { CONSOLE_DIR, CONSOLE_FILES } from './console-assets';

/**
 * The console's browser code is plain JavaScript served as it is, so these checks stand in for a
 * build: it type-checks against the DOM (JSDoc types, strict), every file is served, and none
 * turns strings into HTML or code (the page's CSP enforces that too, in the browser).
 */
describe('console files', () => {
  const files = readdirSync(CONSOLE_DIR).filter((name) => name !== 'tsconfig.json');

  it('serves every file of public/ and names none that is missing', () => {
    expect(Object.keys(CONSOLE_FILES).sort()).toEqual([...files].sort());
  });

  it('type-checks the browser code with DOM types (public/tsconfig.json)', () => {
    const configPath = join(CONSOLE_DIR, 'tsconfig.json');
    const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
    expect(read.error).toBeUndefined();
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, CONSOLE_DIR);
    expect(parsed.fileNames.map((f) => f.split('/').pop()).sort()).toEqual(
      files.filter((f) => f.endsWith('.js')).sort(),
    );
    const program = ts.createProgram(parsed.fileNames, parsed.options);
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const report = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => CONSOLE_DIR,
      getNewLine: () => '\n',
    });
    expect(report).toBe('');
  });

  it.each(files.filter((f) => f.endsWith('.js')))(
    '%s builds no HTML or code from strings',
    (file) => {
      const source = readFileSync(join(CONSOLE_DIR, file), 'utf8');
      expect(source).not.toMatch(
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/,
      );
    },
  );
});
