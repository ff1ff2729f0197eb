/**
 * GnuCash (Debian's gnucash 4.13), a real desktop application nobody here wrote, on an X display:
 * a book of its own in GnuCash's XML format (uncompressed, so the test reads back what GnuCash
 * saved), a HOME of its own whose settings turn off the tip of the day, the splash screen,
 * autosave and backups, and the transactions read back from the saved file with GnuCash's own
 * engine (python3-gnucash, gnucash_book.py).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stopChild } from './children';
import { until } from './until';

const run = promisify(execFile);

/** The accounts of the book, by the GUIDs its file gives them. */
export const ACCOUNTS = {
  root: '10000000000000000000000000000001',
  checking: '10000000000000000000000000000002',
  dining: '10000000000000000000000000000003',
} as const;

const NAMESPACES = [
  'gnc',
  'act',
  'book',
  'cd',
  'cmdty',
  'price',
  'slot',
  'split',
  'sx',
  'trn',
  'ts',
  'fs',
  'bgt',
  'recurrence',
  'lot',
  'addr',
  'billterm',
  'bt-days',
  'bt-prox',
  'cust',
  'employee',
  'entry',
  'invoice',
  'job',
  'order',
  'owner',
  'taxtable',
  'tte',
  'vendor',
];

function account(name: string, guid: string, type: string, parent?: string): string {
  return [
    '<gnc:account version="2.0.0">',
    `  <act:name>${name}</act:name>`,
    `  <act:id type="guid">${guid}</act:id>`,
    `  <act:type>${type}</act:type>`,
    '  <act:commodity><cmdty:space>CURRENCY</cmdty:space><cmdty:id>EUR</cmdty:id></act:commodity>',
    '  <act:commodity-scu>100</act:commodity-scu>',
    ...(parent ? [`  <act:parent type="guid">${parent}</act:parent>`] : []),
    '</gnc:account>',
  ].join('\n');
}

/** A book with two accounts under the root, Checking (a bank) and Dining (an expense), in euros. */
export function bookXml(): string {
  return [
    '<?xml version="1.0" encoding="utf-8" ?>',
    `<gnc-v2 ${NAMESPACES.map((n) => `xmlns:${n}="http://www.gnucash.org/XML/${n}"`).join(' ')}>`,
    '<gnc:count-data cd:type="book">1</gnc:count-data>',
    '<gnc:book version="2.0.0">',
    '<book:id type="guid">0a1b2c3d4e5f60718293a4b5c6d7e8f9</book:id>',
    '<gnc:count-data cd:type="commodity">1</gnc:count-data>',
    '<gnc:count-data cd:type="account">3</gnc:count-data>',
    '<gnc:commodity version="2.0.0">',
    '  <cmdty:space>CURRENCY</cmdty:space>',
    '  <cmdty:id>EUR</cmdty:id>',
    '  <cmdty:get_quotes/>',
    '  <cmdty:quote_source>currency</cmdty:quote_source>',
    '  <cmdty:quote_tz/>',
    '</gnc:commodity>',
    account('Root Account', ACCOUNTS.root, 'ROOT'),
    account('Checking', ACCOUNTS.checking, 'BANK', ACCOUNTS.root),
    account('Dining', ACCOUNTS.dining, 'EXPENSE', ACCOUNTS.root),
    '</gnc:book>',
    '</gnc-v2>',
    '',
  ].join('\n');
}

/** GSettings as a key file: what a first start would otherwise open over the window. */
const SETTINGS = `[org/gnucash/GnuCash/dialogs/tip-of-the-day]
show-at-startup=false

[org/gnucash/GnuCash/general]
show-splash-screen=false
file-compression=false
autosave-interval-minutes=0.0
autosave-show-explanation=false
retain-type-never=true
retain-type-days=false
retain-type-forever=false
`;

/** One transaction of a saved book: its description and each split's account and value. */
export interface BookTransaction {
  description: string;
  /** By account GUID; the value as GnuCash keeps it, `num/denom` (`-350/100`). */
  splits: Array<{ account: string; value: string }>;
}

/** Debian's Python, which has python3-gnucash (a python3 earlier on PATH may not). */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const BOOK_READER = join(__dirname, 'gnucash_book.py');

/**
 * The transactions of the book as GnuCash saved it, read with GnuCash's own engine
 * (python3-gnucash), read-only: the book may still be open in GnuCash.
 */
export async function readTransactions(path: string): Promise<BookTransaction[]> {
  const { stdout } = await run(PYTHON, [BOOK_READER, path], { timeout: 30_000 });
  return JSON.parse(stdout) as BookTransaction[];
}

export interface GnuCash {
  /** The book's file: what GnuCash saves to. */
  book: string;
  /** GnuCash's process. */
  process: ChildProcess;
  close(): Promise<void>;
}

/** Starts GnuCash on `display` with a fresh book in `dir`, and waits for its main window. */
export async function startGnuCash(display: string, dir: string): Promise<GnuCash> {
  const home = join(dir, 'gnucash-home');
  mkdirSync(join(home, '.config', 'glib-2.0', 'settings'), { recursive: true });
  writeFileSync(join(home, '.config', 'glib-2.0', 'settings', 'keyfile'), SETTINGS);
  const book = join(dir, 'book.gnucash');
  writeFileSync(book, bookXml());
  let err = '';
  const app: ChildProcess = spawn('gnucash', [book], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      GSETTINGS_BACKEND: 'keyfile',
      DISPLAY: display,
      LANG: 'C.UTF-8',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  app.stderr?.on('data', (d: Buffer) => (err += String(d)));
  await until(
    'GnuCash window',
    async () => {
      if (app.exitCode !== null) throw new Error(`GnuCash exited: ${err.slice(-2000)}`);
      const found = await run('xdotool', ['search', '--onlyvisible', '--name', 'GnuCash'], {
        env: { ...process.env, DISPLAY: display },
      }).catch(() => null);
      return found && found.stdout.trim() !== '' ? true : null;
    },
    60_000,
    100,
  );
  return { book, process: app, close: () => stopChild(app) };
}
