import { destinationsCommand } from '../destinations/destinations-cli';
import { DestinationsModule } from '../destinations/destinations.module';
import { Destinations } from '../destinations/destinations.service';
import { operatorName } from '../secrets/secret-grants.service';
import type { CliFamily } from './cli-call';
import { withContext } from './cli-context';

/** `destinations grant|list|revoke` (destinations-cli.ts). */
export const destinations: CliFamily = {
  run: ({ command, values }) =>
    withContext({ imports: [DestinationsModule] }, (app) =>
      destinationsCommand(app.get(Destinations), command, values, operatorName()),
    ),
};
