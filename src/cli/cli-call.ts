import { parseArgs } from 'node:util';

/** The operator's command line: `<group> <command> [<arg>] --option …`. */
export function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: 'string' },
      subject: { type: 'string' },
      permissions: { type: 'string' },
      families: { type: 'string' },
      family: { type: 'string' },
      version: { type: 'string' },
      effort: { type: 'string' },
      deadline: { type: 'string' },
      pixels: { type: 'string' },
      tags: { type: 'string' },
      programs: { type: 'string' },
      env: { type: 'string' },
      to: { type: 'string', multiple: true },
      note: { type: 'string' },
      planner: { type: 'string' },
      tag: { type: 'string' },
      program: { type: 'string' },
      file: { type: 'string' },
      'as-of': { type: 'string' },
      early: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

export type CliValues = ReturnType<typeof parseCommandLine>['values'];

/** One command of a family: `secrets grant …` is the family `secrets` with `command` grant. */
export interface CliCall {
  command: string | undefined;
  arg: string | undefined;
  values: CliValues;
}

/** A command family (token, secrets, …): runs one of its commands and answers the exit code. */
export interface CliFamily {
  run(call: CliCall): Promise<number>;
}
