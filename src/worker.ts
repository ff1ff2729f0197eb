import { Logger } from 'nestjs-pino';
import { loadConfig } from './config/app-config';
import { createWorker } from './worker.module';

async function main(): Promise<void> {
  // Read first: a bad variable stops the process with a message that names it.
  const config = loadConfig();
  const app = await createWorker(config);
  app.enableShutdownHooks();
  app.get(Logger).log(`Warden worker started (queue prefix ${config.QUEUE_PREFIX})`, 'Main');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
