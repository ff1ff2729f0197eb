import { Logger } from 'nestjs-pino';
import { createApp } from './app.factory';
import { loadConfig } from './config/app-config';

async function main(): Promise<void> {
  // Read first: a bad variable stops the process with a message that names it.
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen(config.PORT, config.HOST);
  app.get(Logger).log(`Warden API listening on ${await app.getUrl()}`, 'Main');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
