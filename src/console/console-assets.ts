import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A file of the console as it is served: its bytes, type and ETag. */
export interface ConsoleAsset {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * The console's files: plain HTML, CSS and ES modules, no build step. Only the files named here
 * are served; the folder is read once at start-up. `nest build` copies it next to the compiled
 * code (nest-cli.json `assets`), so `public/` beside this file exists both in `src/` and `dist/`.
 */
export const CONSOLE_FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
  'app.js': 'text/javascript; charset=utf-8',
  'api.js': 'text/javascript; charset=utf-8',
  'dom.js': 'text/javascript; charset=utf-8',
  'words.js': 'text/javascript; charset=utf-8',
  'typed-words.js': 'text/javascript; charset=utf-8',
  'change-words.js': 'text/javascript; charset=utf-8',
  'event-words.js': 'text/javascript; charset=utf-8',
  'screens.js': 'text/javascript; charset=utf-8',
  'screen-marks.js': 'text/javascript; charset=utf-8',
  'close-up.js': 'text/javascript; charset=utf-8',
  'after-sent.js': 'text/javascript; charset=utf-8',
  'changes.js': 'text/javascript; charset=utf-8',
  'rail.js': 'text/javascript; charset=utf-8',
  'deciders.js': 'text/javascript; charset=utf-8',
  'signin.js': 'text/javascript; charset=utf-8',
  'inbox.js': 'text/javascript; charset=utf-8',
  'approval.js': 'text/javascript; charset=utf-8',
  'resume-panel.js': 'text/javascript; charset=utf-8',
  'decision-words.js': 'text/javascript; charset=utf-8',
  'earlier-steps.js': 'text/javascript; charset=utf-8',
  'runs.js': 'text/javascript; charset=utf-8',
  'run.js': 'text/javascript; charset=utf-8',
  'run-step.js': 'text/javascript; charset=utf-8',
  'run-transcript.js': 'text/javascript; charset=utf-8',
  'routine.js': 'text/javascript; charset=utf-8',
  'audit.js': 'text/javascript; charset=utf-8',
  'admin.js': 'text/javascript; charset=utf-8',
  'governance.js': 'text/javascript; charset=utf-8',
  'inventory.js': 'text/javascript; charset=utf-8',
};

export const CONSOLE_DIR = join(__dirname, 'public');

@Injectable()
export class ConsoleAssets implements OnModuleInit {
  private readonly logger = new Logger(ConsoleAssets.name);
  private readonly files = new Map<string, ConsoleAsset>();

  async onModuleInit(): Promise<void> {
    for (const [name, type] of Object.entries(CONSOLE_FILES)) {
      try {
        const body = await readFile(join(CONSOLE_DIR, name));
        const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
        this.files.set(name, { body, type, etag });
      } catch (error) {
        // The API still serves; the console answers 404 for what is missing and says so here.
        this.logger.error(`console file ${name} is missing from ${CONSOLE_DIR}: ${String(error)}`);
      }
    }
  }

  get(name: string): ConsoleAsset | undefined {
    return Object.hasOwn(CONSOLE_FILES, name) ? this.files.get(name) : undefined;
  }
}
