import { PlannerAccessModule } from '../computer-use/catalog/planner-access.module';
import { PlannerAccess } from '../computer-use/catalog/planner-access.service';
import { plannersCommand } from '../computer-use/catalog/planners-cli';
import { remoteCommand } from '../computer-use/remote/remote-cli';
import { RemoteFamiliesModule } from '../computer-use/remote/remote-families.module';
import { RemoteFamilies } from '../computer-use/remote/remote-families.service';
import { operatorName } from '../secrets/secret-grants.service';
import type { CliFamily } from './cli-call';
import { withContext } from './cli-context';

/** `planners remote …` (remote-cli.ts) and the planner catalog's access (planners-cli.ts). */
export const planners: CliFamily = {
  run: ({ command, arg, values }) => {
    if (command === 'remote') {
      return withContext({ imports: [RemoteFamiliesModule] }, (app) =>
        remoteCommand(
          app.get(RemoteFamilies),
          arg,
          {
            family: values.family,
            version: values.version,
            effort: values.effort,
            deadline: values.deadline,
            pixels: values.pixels,
            tags: values.tags,
            programs: values.programs,
            note: values.note,
          },
          operatorName(),
        ),
      );
    }
    return withContext({ imports: [PlannerAccessModule] }, (app) =>
      plannersCommand(app.get(PlannerAccess), command, arg, values, operatorName()),
    );
  },
};
