import type { RemoteFamilies, RemoteFamilyChange } from './remote-families.service';

export const REMOTE_USAGE = `  planners remote add --family <family> --deadline <seconds> --pixels yes|no
        [--version <1>] [--effort <normal>] [--tags <t1,t2>] [--programs <p1,p2>] [--note <why>]
        registers (or changes) a remote planner family: its steps are decided by the tenant's own
        worker (a token with planners.serve --families <family>); its id is
        <family>-<version>-<effort>; not public (planners allow, or its tags and programs)
  planners remote list                   every remote family
  planners remote remove --family <family>`;

/**
 * `planners remote add|list|remove`: the deployment operator's remote planner families (docs/models.md),
 * audited `planner.remote_changed` as `actor`. Answers the exit code.
 */
export async function remoteCommand(
  families: RemoteFamilies,
  command: string | undefined,
  values: RemoteFamilyChange,
  actor: string,
): Promise<number> {
  if (command === 'list') {
    const rows = await families.list();
    if (rows.length === 0) console.log('no remote planner families');
    else
      console.table(
        rows.map((r) => ({
          ...r,
          tags: r.tags.join(','),
          programs: r.programs.join(','),
          note: r.note ?? '',
        })),
      );
    return 0;
  }
  if (command === 'remove') {
    if (!values.family) {
      console.error('planners remote remove needs --family');
      return 2;
    }
    const removed = await families.remove(values.family, actor);
    if (!removed) {
      console.error(`no remote planner family ${values.family}`);
      return 1;
    }
    console.log(`removed remote planner family ${removed.family} (${removed.id})`);
    return 0;
  }
  if (command !== 'add') {
    console.error(REMOTE_USAGE);
    return 2;
  }
  try {
    const { family, created } = await families.add(values, actor);
    console.log(
      `${created ? 'registered' : 'changed'} remote planner ${family.id}: deadline ${family.deadline_seconds} s, pixels ${family.pixels ? 'yes' : 'no'}`,
    );
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
}
