import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import type { CliFamily } from './cli/cli-call';
import { parseCommandLine } from './cli/cli-call';
import { verifyFile } from './cli/audit-report';
import { USAGE } from './cli/usage';

/**
 * Each command family's file, loaded only when one of its commands runs: a family's imports (Nest,
 * TypeORM, its services and theirs) are most of a command's time, so a command loads and starts
 * its own family alone (docs/operations.md, "The CLI"). `require` rather than `import()`: the
 * compiled CLI would resolve `import()` as ECMAScript, which needs a `.js` path that the TypeScript
 * source (which the tests run) does not have.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const FAMILIES: Record<string, () => CliFamily> = {
  migrate: () => (require('./cli/migrate') as typeof import('./cli/migrate')).migrate,
  token: () => (require('./cli/tokens') as typeof import('./cli/tokens')).tokens,
  secrets: () => (require('./cli/secrets') as typeof import('./cli/secrets')).secrets,
  destinations: () =>
    (require('./cli/destinations') as typeof import('./cli/destinations')).destinations,
  planners: () => (require('./cli/planners') as typeof import('./cli/planners')).planners,
  screens: () => (require('./cli/screens') as typeof import('./cli/screens')).screens,
  audit: () => (require('./cli/audit') as typeof import('./cli/audit')).audit,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Operator commands run on a machine with database access; recorded in the audit log as `cli`. */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseCommandLine(argv);
  const [group, command, arg] = positionals;
  if (values.help || !group) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  // An export is checked with no database: an auditor may have the file alone.
  if (group === 'audit' && command === 'verify' && values.file !== undefined) {
    if (values.tenant !== undefined) {
      console.error('audit verify takes --tenant (the database) or --file (an export), not both');
      return 2;
    }
    return verifyFile(values.file);
  }
  // Compiling the family's modules is a good part of its load: Node keeps the compiled code on disk,
  // beside the code it was compiled from (NODE_COMPILE_CACHE elsewhere; NODE_DISABLE_COMPILE_CACHE=1
  // turns it off). Never in the shared temporary folder: code another local user could write there
  // would run in the command that releases the deployment's secrets.
  enableCompileCache(join(__dirname, '..', '.compile-cache'));
  const family = Object.hasOwn(FAMILIES, group) ? FAMILIES[group]() : undefined;
  if (!family) {
    console.error(USAGE);
    return 2;
  }
  return family.run({ command, arg, values });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
