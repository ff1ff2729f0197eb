/**
 * Tesseract, offline (docs/rules.md: the OCR label source): a tesseract.js worker started on the
 * eng and deu traineddata from npm with no network, and the words of its TSV output.
 */
import { copyFile, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

/** The languages with traineddata installed from npm (`@tesseract.js-data/<lang>`). */
export type OcrLanguage = 'deu' | 'eng';
/** German first: it read umlauts right where English dropped them, and reads English labels. */
export const DEFAULT_LANGUAGES: readonly OcrLanguage[] = ['deu', 'eng'];

function trainedData(lang: string): string {
  const pkg = require.resolve(`@tesseract.js-data/${lang}/package.json`);
  return join(dirname(pkg), '4.0.0_best_int', `${lang}.traineddata.gz`);
}

export interface TesseractWord {
  text: string;
  confidence: number;
}

/**
 * The words of tesseract's TSV output (level 5 rows: `5 page block par line word left top width
 * height conf text`). TSV is asked for rather than the block tree, which carries every symbol
 * and its alternatives across the thread boundary.
 */
export function wordsOfTsv(tsv: unknown): TesseractWord[] {
  if (typeof tsv !== 'string') return [];
  const out: TesseractWord[] = [];
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    if (cols[0] !== '5' || cols.length < 12) continue;
    const confidence = Number(cols[10]);
    const text = cols.slice(11).join(' ').trim();
    if (text !== '' && Number.isFinite(confidence)) out.push({ text, confidence });
  }
  return out;
}

/** One line of text tesseract read on a whole screen, with where it is (in the image's pixels). */
export interface TesseractLine {
  text: string;
  /** The mean confidence of its words, 0–100. */
  confidence: number;
  rect: { x: number; y: number; width: number; height: number };
}

/**
 * The lines of tesseract's TSV output: its words (level 5 rows) grouped by block, paragraph and
 * line, in the order read, each with the box around its words.
 */
export function linesOfTsv(tsv: unknown): TesseractLine[] {
  if (typeof tsv !== 'string') return [];
  const lines = new Map<string, { words: string[]; conf: number[]; box: number[] }>();
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    if (cols[0] !== '5' || cols.length < 12) continue;
    const [left, top, width, height, confidence] = cols.slice(6, 11).map(Number);
    const text = cols.slice(11).join(' ').trim();
    if (text === '' || ![left, top, width, height, confidence].every(Number.isFinite)) continue;
    const key = cols.slice(1, 5).join(':');
    let line = lines.get(key);
    if (!line) {
      line = { words: [], conf: [], box: [left, top, left + width, top + height] };
      lines.set(key, line);
    }
    line.words.push(text);
    line.conf.push(confidence);
    const b = line.box;
    b[0] = Math.min(b[0], left);
    b[1] = Math.min(b[1], top);
    b[2] = Math.max(b[2], left + width);
    b[3] = Math.max(b[3], top + height);
  }
  return [...lines.values()].map(({ words, conf, box }) => ({
    text: words.join(' '),
    confidence: Math.round(conf.reduce((s, c) => s + c, 0) / conf.length),
    rect: { x: box[0], y: box[1], width: box[2] - box[0], height: box[3] - box[1] },
  }));
}

/**
 * Starts a worker with no network: tesseract.js reads `<langPath>/<lang>.traineddata.gz` for
 * every language from one folder, and the two npm data packages are two folders, so a temporary
 * folder links both; it is removed as soon as the data is loaded. `cacheMethod: 'none'` stops
 * tesseract.js writing a copy into the working directory.
 */
export async function spawnWorker(
  languages: readonly OcrLanguage[],
  onDeath: () => void,
): Promise<Worker> {
  const dir = await mkdtemp(join(tmpdir(), 'warden-ocr-'));
  try {
    for (const lang of languages) {
      const from = trainedData(lang);
      const to = join(dir, `${lang}.traineddata.gz`);
      await symlink(from, to).catch(() => copyFile(from, to));
    }
    const worker = await createWorker(languages.join('+'), OEM.LSTM_ONLY, {
      langPath: dir,
      gzip: true,
      cacheMethod: 'none',
      logger: () => undefined,
      // Without a handler tesseract.js rethrows a failed job inside a message listener, which
      // would take the whole process down.
      errorHandler: () => undefined,
    });
    await worker.setParameters({
      tessedit_pageseg_mode: PSM.SINGLE_LINE,
      // Stops "Estimating resolution" on stdout; the line is drawn at a known size anyway.
      user_defined_dpi: '300',
      // The line is drawn dark on white, so the inverted retry would only cost time.
      tessedit_do_invert: '0',
      debug_file: '/dev/null',
    });
    // The thread must not keep the process alive on its own, and its death must not crash it.
    const thread = (worker as unknown as { worker?: NodeJS.EventEmitter & { unref?: () => void } })
      .worker;
    thread?.on('error', onDeath);
    thread?.on('exit', onDeath);
    thread?.unref?.();
    return worker;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
