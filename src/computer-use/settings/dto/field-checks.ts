/**
 * How the DTOs check an environment variable's name and a URL: shared by the agent
 * (computer-use-config.dto.ts) and its model planner (model-planner.dto.ts).
 */
import { BOUNDS } from '../config-bounds';

export { ENV_NAME_MESSAGE } from '../../../config/names';

export const HTTPS_URL = {
  protocols: ['https'],
  require_protocol: true,
  require_tld: false,
  allow_underscores: true,
  disallow_auth: true,
  max_allowed_length: BOUNDS.url,
};

export const HTTP_URL = { ...HTTPS_URL, protocols: ['http', 'https'] };
