import { PLANNERS_USAGE } from '../computer-use/catalog/planners-cli';
import { REMOTE_USAGE } from '../computer-use/remote/remote-cli';
import { DESTINATIONS_USAGE } from '../destinations/destinations-cli';

/** What `npm run cli -- --help` prints, and a command that is not one. */
export const USAGE = `usage: npm run cli -- <command>
  token create --tenant <tenant> --subject <who> --permissions <p1,p2,...> [--families <f1,f2>]
        planners.serve (a remote planner's worker) needs --families: the families it may serve
        prints the new token alone on the last line of stdout; it is shown only once
  token list [--tenant <tenant>]
  token revoke <token-id>
  secrets grant --tenant <tenant> --env <VARIABLE> --to <https://host:port> [--to …]
        lets Warden send the variable's value (a screen host token, a model key) to that origin
        on the tenant's behalf (which grants the origin as a destination too); Warden's own
        variables are refused
  secrets list [--tenant <tenant>]
  secrets revoke --tenant <tenant> --env <VARIABLE> --to <https://host:port>
${DESTINATIONS_USAGE}
${PLANNERS_USAGE}
${REMOTE_USAGE}
  screens purge [--tenant <tenant>] [--as-of <time>] [--early]
        drop the PNG bytes of screens past their tenant's retention (what the workers' daily job
        does; screens of a held run are kept), now or as if it were --as-of (ISO 8601 with its
        zone, 2027-06-01T00:00:00Z); a time after now drops screens early and needs --early
  audit verify --tenant <tenant>
        recompute the tenant's hash chain from the database, as GET /api/audit/verify answers
  audit verify --file <export.ndjson>
        the same check of an NDJSON export (GET /api/audit, Accept: application/x-ndjson, no
        filter), with no database; both exit 1 when the chain does not verify
  screens rekey                 re-encrypt every kept screen under the current screen key
        (SCREEN_KEYS_ENV; plaintext screens too); resumable, in batches
  migrate                       apply pending database migrations`;
