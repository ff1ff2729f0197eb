/**
 * Tokens and grants made as a deployment's operator makes them: with the CLI (`token create`,
 * `secrets grant`), each command a process of its own. Used by every stack of processes (the bench,
 * the eval, the demo); how the CLI is run (which process group, which log) is the caller's.
 */

/** Runs the CLI with `args` to its end, its output in `logName`; answers its stdout or throws. */
export type CliRun = (args: string[], logName: string) => Promise<string>;

/** A person of the stack: who they are and what they may do. */
export interface Person {
  subject: string;
  permissions: readonly string[];
}

/** One token per person, made at once with `cli token create`; each the command's last line. */
export async function makeTokens<Role extends string>(
  cli: CliRun,
  tenant: string,
  people: Record<Role, Person>,
): Promise<Record<Role, string>> {
  const made = await Promise.all(
    (Object.entries(people) as Array<[Role, Person]>).map(async ([role, p]) => {
      const out = await cli(
        [
          ...['token', 'create', '--tenant', tenant],
          ...['--subject', p.subject, '--permissions', p.permissions.join(',')],
        ],
        `token-${p.subject}.log`,
      );
      const token = out.trim().split('\n').pop()?.trim() ?? '';
      if (!token.startsWith('wdn_'))
        throw new Error(`token create for ${p.subject} printed no token`);
      return [role, token] as const;
    }),
  );
  return Object.fromEntries(made) as Record<Role, string>;
}

/** The operator's grant (`cli secrets grant`): the variable `env` may go to each of `to`'s origins. */
export async function grantSecret(
  cli: CliRun,
  tenant: string,
  env: string,
  to: readonly string[],
): Promise<void> {
  if (to.length === 0) return;
  await cli(
    [
      ...['secrets', 'grant', '--tenant', tenant, '--env', env],
      ...to.flatMap((url) => ['--to', new URL(url).origin]),
    ],
    `grant-${env}.log`,
  );
}
