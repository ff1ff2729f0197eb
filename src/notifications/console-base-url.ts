import type { AppConfig } from '../config/app-config';

/** Where people reach the console: PUBLIC_URL, else the API's own address; no trailing slash. */
export function consoleBaseUrl(config: Pick<AppConfig, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${config.PORT}`;
}
