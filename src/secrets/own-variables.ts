import { AppConfig } from '../config/app-config';
import { modelPlanners } from '../config/model-planners';

/**
 * Variables Warden itself reads, or that its libraries and Node read, whatever their value:
 * never granted (docs/screen-host.md). Names are upper-case environment variable names.
 */
const OWN_PREFIXES = ['PG', 'REDIS', 'NODE_', 'NPM_', 'OIDC_', 'DEFAULT_MODEL'];
const OWN_NAMES = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'SESSION_SECRET',
  'CA_DIR',
  'PUBLIC_URL',
  'HOME',
  'PATH',
  'USER',
  'SHELL',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'DISPLAY',
  'XAUTHORITY',
]);

/**
 * Why a variable can never be granted, or null: one of Warden's configuration variables (anything
 * AppConfig reads), a variable of PostgreSQL's, Redis', Node's or npm's clients, one named by
 * Warden's own configuration (the default model's key, the sign-in client secret), or the
 * process's environment basics.
 */
export function ownVariable(
  name: string,
  config: Partial<Pick<AppConfig, 'DEFAULT_MODEL_API_KEY_ENV' | 'MODEL_PLANNERS'>> &
    Record<string, unknown>,
): string | null {
  const upper = name.toUpperCase();
  if (Object.keys(new AppConfig()).some((known) => known.toUpperCase() === upper)) {
    return `${name} is one of Warden's own configuration variables`;
  }
  if (OWN_NAMES.has(upper)) return `${name} belongs to the Warden host, not to a tenant`;
  const prefix = OWN_PREFIXES.find((p) => upper.startsWith(p));
  if (prefix) {
    return `${name} starts with ${prefix}, which Warden and its libraries read for themselves`;
  }
  if (modelPlanners(config).some((p) => p.api_key_env.toUpperCase() === upper)) {
    return `${name} is the key of one of the deployment's MODEL_PLANNERS`;
  }
  for (const [key, value] of Object.entries(config)) {
    if (key.endsWith('_ENV') && typeof value === 'string' && value.toUpperCase() === upper) {
      return `${name} is named by Warden's own ${key}`;
    }
  }
  return null;
}
