import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';

/** A file of the console as it is served: its bytes, type and ETag. */
export interface ConsoleAsset {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * The console's files as the browser gets them: the page, its style sheet, its icon and the
 * bundle of its code, built from src/console/browser/ into dist/console/ by `npm run build`
 * (scripts/build-console.ts). Only the files named here are served; the folder is read once at
 * start-up.
 */
export const CONSOLE_FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
  'app.js': 'text/javascript; charset=utf-8',
};

/**
 * The repository's (or the image's) root: this file runs compiled from dist/src/console/, or from
 * its source in src/console/ (the e2e tests); the built console is in dist/console/ either way.
 */
const above = resolve(__dirname, '..', '..');
const ROOT = basename(above) === 'dist' ? resolve(above, '..') : above;
export const CONSOLE_DIR = join(ROOT, 'dist', 'console');

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
        this.logger.error(
          `console file ${name} is missing from ${CONSOLE_DIR} (npm run build builds the console): ${String(error)}`,
        );
      }
    }
  }

  get(name: string): ConsoleAsset | undefined {
    return Object.hasOwn(CONSOLE_FILES, name) ? this.files.get(name) : undefined;
  }
}
