import type { PlannerAccess } from './planner-access.service';

export const PLANNERS_USAGE = `  planners allow --tenant <tenant> [--subject <who>] --planner <id or family> [--note <why>]
  planners deny  --tenant <tenant> [--subject <who>] --planner <id or family> [--note <why>]
        who may use which planner (GET /api/planners): an id (anthropic-claude-sonnet-4.5-normal,
        navigator-2026-11-10-normal, scripted-<uuid>) or a family (every version and effort:
        navigator, scripted); without --subject, for the whole tenant; a deny always wins
  planners tag --tenant <tenant> --subject <who> --tag <name> [--note <why>]
  planners untag --tenant <tenant> --subject <who> --tag <name>
        a subject's tag (lower-case words joined by hyphens): a planner for that tag is available
        to the subject (the navigator is for researcher)
  planners program --tenant <tenant> --program <name> [--note <why>]
        the tenant joins a program: a planner for that program is available to the tenant
  planners list [--tenant <tenant>]      every allow, deny, tag and program, with its id
  planners remove <id>                    remove one of them (its id from planners list)`;

type Values = {
  tenant?: string;
  subject?: string;
  planner?: string;
  tag?: string;
  program?: string;
  note?: string;
};

/**
 * `planners allow|deny|tag|untag|program|list|remove`: the deployment operator's access to the
 * planner catalog (docs/models.md), audited `planner.access_changed` as `actor` (the OS user). Answers
 * the exit code.
 */
export async function plannersCommand(
  access: PlannerAccess,
  command: string | undefined,
  arg: string | undefined,
  values: Values,
  actor: string,
): Promise<number> {
  if (command === 'list') {
    const rows = await access.list(values.tenant);
    if (rows.length === 0) console.log('no planner access set');
    else
      console.table(
        rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          tenant: r.tenant,
          subject: r.subject ?? '',
          planner: r.planner ?? '',
          name: r.name ?? '',
          note: r.note ?? '',
          set_by: r.set_by,
          set_at: r.set_at,
        })),
      );
    return 0;
  }
  if (command === 'remove') {
    if (!arg) {
      console.error('planners remove needs the id of a row of planners list');
      return 2;
    }
    const removed = await access.remove(arg, actor);
    if (!removed) {
      console.error(`no planner access ${arg}`);
      return 1;
    }
    console.log(`removed the ${removed.kind} ${describe(removed)} of tenant ${removed.tenant}`);
    return 0;
  }
  if (
    command !== 'allow' &&
    command !== 'deny' &&
    command !== 'tag' &&
    command !== 'untag' &&
    command !== 'program'
  ) {
    console.error(PLANNERS_USAGE);
    return 2;
  }
  if (!values.tenant) {
    console.error(`planners ${command} needs --tenant`);
    return 2;
  }
  if (command === 'untag') {
    const removed = await access.untag(
      { tenant: values.tenant, subject: values.subject, name: values.tag },
      actor,
    );
    if (!removed) {
      console.error(
        `subject ${values.subject ?? '?'} of tenant ${values.tenant} has no tag ${values.tag ?? '?'}`,
      );
      return 1;
    }
    console.log(`untagged ${removed.subject} of tenant ${removed.tenant}: ${removed.name}`);
    return 0;
  }
  if (command !== 'tag' && values.tag !== undefined) {
    console.error(`planners ${command} takes no --tag`);
    return 2;
  }
  if (command !== 'program' && values.program !== undefined) {
    console.error(`planners ${command} takes no --program`);
    return 2;
  }
  const { row, created } = await access.set(
    {
      kind: command,
      tenant: values.tenant,
      subject: values.subject,
      planner: values.planner,
      name: command === 'tag' ? values.tag : command === 'program' ? values.program : undefined,
      note: values.note,
    },
    actor,
  );
  console.log(
    `${created ? 'set' : 'already set'}: ${row.kind} ${describe(row)} of tenant ${row.tenant} (id ${row.id}, by ${row.set_by} at ${row.set_at})`,
  );
  return 0;
}

function describe(row: {
  kind: string;
  subject: string | null;
  planner: string | null;
  name: string | null;
}): string {
  if (row.kind === 'tag') return `${row.name} on subject ${row.subject}`;
  if (row.kind === 'program') return row.name ?? '';
  return `${row.planner} to ${row.subject === null ? 'the whole tenant' : `subject ${row.subject}`}`;
}
