import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package's version; `src/` and `dist/` both sit one level below package.json. */
export const VERSION: string = (
  JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;
