/**
 * Reads the label at a point from a screenshot's pixels (docs/rules.md: the second label source, used
 * where the screen outline names nothing). Fully offline: tesseract.js with the eng and deu
 * traineddata from npm, one long-lived worker.
 *
 * The text line under or nearest the point is first found in plain TypeScript (text-line.ts says
 * why). Only that line's glyphs are drawn, dark on white, scaled to about 32 px high
 * (text-line-render.ts), and tesseract reads it as a single line (tesseract-worker.ts). Every
 * word it read comes back with its confidence; what they say (is it a label, does it name a
 * committing verb) is for the rules to decide (actions/ocr-label.ts), never the reader.
 * For the injection rail on a host without an outline it also reads a whole screen's lines.
 */
import { PSM, type Worker } from 'tesseract.js';
import type { Rect } from '@warden/protocol';
import { type CoordinateSpace, decodeScreenshot, lineToRead } from './ocr-input';
import { linesInSpace, screenPgm, type ScreenTextLine } from './ocr-screen-text';
import {
  DEFAULT_LANGUAGES,
  linesOfTsv,
  spawnWorker,
  wordsOfTsv,
  type OcrLanguage,
} from './tesseract-worker';
import { findFieldLabelLine } from './field-label-line';
import type { RgbaImage } from './glyph-components';
import { findTextLine, type TextLine } from './text-line';
import { dialogCaptionBelow } from './dialog-caption';
import { findTitleLine } from './title-line';

export { findFieldLabelLine } from './field-label-line';
export type { RgbaImage } from './glyph-components';
export { findTextLine, type TextLine } from './text-line';
export { renderTextLine } from './text-line-render';
export { DEFAULT_LANGUAGES, type OcrLanguage } from './tesseract-worker';
export {
  type CoordinateSpace,
  decodeScreenshot,
  OcrImageError,
  MAX_IMAGE_PIXELS,
} from './ocr-input';

export interface OcrLabel {
  /** Every word read on the line, in order, with tesseract's confidence (0–100), however unsure. */
  words: OcrWord[];
  /** The words read with at least `minConfidence`, joined by spaces (may be empty). */
  text: string;
  /** Tesseract's mean word confidence of those words, 0–100 (0 when there are none). */
  confidence: number;
  /** The line read, in the coordinate space of actions: where on the screen the words are. */
  box: Rect;
}

/** One word of a line, as tesseract read it. */
export interface OcrWord {
  text: string;
  confidence: number;
}

export interface OcrLabelReaderOptions {
  /** Words read with less confidence are left out of `text` (they stay in `words`). Default 40. */
  minConfidence?: number;
  /** One read may take this long before the worker is restarted and the read fails. Default 5000. */
  timeoutMs?: number;
  /** The same for a whole screen (`readScreenText`). Default 10000. */
  screenTimeoutMs?: number;
  /**
   * Default deu+eng. Each language adds a fixed cost to every read (about 7 ms here), so an
   * agent whose screens are in one language may pass just that one.
   */
  languages?: readonly OcrLanguage[];
}

export class OcrError extends Error {
  readonly code: string = 'ocr_failed';
}

/** A read took longer than the reader's `timeoutMs`. */
export class OcrTimeoutError extends OcrError {
  override readonly code = 'ocr_timed_out';
}

const SCREEN_MODE = { tessedit_pageseg_mode: PSM.SPARSE_TEXT };
const LINE_MODE = { tessedit_pageseg_mode: PSM.SINGLE_LINE };

/** Loading tesseract and both languages takes about a second; this much means it is stuck. */
const START_TIMEOUT_MS = 60_000;

/**
 * One long-lived tesseract.js worker (deu+eng by default, LSTM, single-line mode), started on first use or
 * by `start()`. Reads are queued one at a time; a read that hangs past `timeoutMs` fails and the
 * worker is replaced. Safe to share across runs; `close()` when done (a Nest provider's
 * `onModuleDestroy` calls it).
 */
export class OcrLabelReader {
  private readonly minConfidence: number;
  private readonly timeoutMs: number;
  private readonly screenTimeoutMs: number;
  private readonly languages: readonly OcrLanguage[];
  private worker: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly pending = new Set<(e: Error) => void>();

  constructor(options: OcrLabelReaderOptions = {}) {
    this.minConfidence = options.minConfidence ?? 40;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.screenTimeoutMs = options.screenTimeoutMs ?? 10_000;
    const languages = options.languages ?? DEFAULT_LANGUAGES;
    if (languages.length === 0 || languages.some((l) => !DEFAULT_LANGUAGES.includes(l))) {
      throw new OcrError(`OCR languages must be among ${DEFAULT_LANGUAGES.join(', ')}`);
    }
    this.languages = [...new Set(languages)];
  }

  /** Starts the worker now (about a second) instead of on the first read. */
  async start(): Promise<void> {
    await this.startedWithin();
  }

  /**
   * The label at (x, y) of a PNG screenshot, or null when no text is within reach of the point
   * (or tesseract read no word in it).
   * `space` is the coordinate space x and y are in when it differs from the PNG's pixels
   * (the host's `X-Screen-Width`/`-Height` on a HiDPI screen). A broken or oversized PNG rejects
   * with `OcrImageError`.
   */
  async readLabelAt(
    png: Buffer,
    x: number,
    y: number,
    space?: CoordinateSpace,
  ): Promise<OcrLabel | null> {
    return this.readLabelAtPixels(decodeScreenshot(png), x, y, space);
  }

  /** `readLabelAt` for a screenshot already decoded to RGBA (saves the decode). */
  async readLabelAtPixels(
    image: RgbaImage,
    x: number,
    y: number,
    space?: CoordinateSpace,
  ): Promise<OcrLabel | null> {
    return this.readLine(image, x, y, space, findTextLine);
  }

  /**
   * The label beside the text field at (x, y) of a PNG screenshot (docs/rules.md: the label of the
   * focused field, where the outline names none): the text nearest the field's left border, on
   * its row. Null when no field border or no text beside it is found.
   */
  async readFieldLabelAt(
    png: Buffer,
    x: number,
    y: number,
    space?: CoordinateSpace,
  ): Promise<OcrLabel | null> {
    return this.readLine(decodeScreenshot(png), x, y, space, findFieldLabelLine);
  }

  /** `readFieldLabelAt` for a screenshot already decoded to RGBA. */
  async readFieldLabelAtPixels(
    image: RgbaImage,
    x: number,
    y: number,
    space?: CoordinateSpace,
  ): Promise<OcrLabel | null> {
    return this.readLine(image, x, y, space, findFieldLabelLine);
  }

  /**
   * The screen's title as shown in its title bar (docs/rules.md, screen rules on a host without an
   * outline): the line `findTitleLine` takes for it. Null when no such line is found (or
   * tesseract read no word in it), and when a dialog is open over the screen (`dialogCaptionBelow`):
   * the title bar then names the screen behind the dialog, which has the focus.
   */
  async readTitleBar(png: Buffer, space?: CoordinateSpace): Promise<OcrLabel | null> {
    return this.readTitleBarPixels(decodeScreenshot(png), space);
  }

  /** `readTitleBar` for a screenshot already decoded to RGBA. */
  async readTitleBarPixels(image: RgbaImage, space?: CoordinateSpace): Promise<OcrLabel | null> {
    return this.readLine(image, 0, 0, space, (decoded, _x, _y, scale) =>
      dialogCaptionBelow(decoded, scale) ? null : findTitleLine(decoded, scale),
    );
  }

  /**
   * Finds and renders the text line (synchronously), then reads it. Only the small rendering of the
   * line waits in the OCR queue: the decoded screenshot is garbage by then, so concurrent steps
   * waiting for OCR hold one line each, not one decoded screen each.
   */
  private readLine(
    image: RgbaImage,
    x: number,
    y: number,
    space: CoordinateSpace | undefined,
    find: (image: RgbaImage, x: number, y: number, scale: number) => TextLine | null,
  ): Promise<OcrLabel | null> {
    // Not async: this frame, and the image with it, ends before anything is awaited.
    if (this.closed) return Promise.reject(new OcrError('the OCR reader is closed'));
    let line: { pgm: Buffer; box: Rect } | null;
    try {
      line = lineToRead(image, x, y, space, find);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new OcrError(String(error)));
    }
    return line ? this.readRendered(line.pgm, line.box) : Promise.resolve(null);
  }

  /**
   * Every line of text on a whole screenshot, with its box in `space` (the coordinate space of
   * actions, when it differs from the PNG's pixels): what the injection rail reads on a host that
   * serves no outline (docs/models.md). Tesseract's sparse-text mode, about 0.1 to 1 s for 1280×800;
   * it waits in the same queue as the line reads. A broken PNG rejects with `OcrImageError`.
   */
  async readScreenText(png: Buffer, space?: CoordinateSpace): Promise<ScreenTextLine[]> {
    if (this.closed) throw new OcrError('the OCR reader is closed');
    const image = decodeScreenshot(png);
    const size = { width: image.width, height: image.height };
    const pgm = screenPgm(image);
    return linesInSpace(linesOfTsv(await this.recognise(pgm, 'screen')), size, space);
  }

  private async readRendered(pgm: Buffer, box: Rect): Promise<OcrLabel | null> {
    const words = wordsOfTsv(await this.recognise(pgm, 'line'))
      .map((w) => ({ text: w.text.trim(), confidence: w.confidence }))
      .filter((w) => w.text !== '');
    if (words.length === 0) return null;
    const kept = words.filter((w) => w.confidence >= this.minConfidence);
    const text = kept.map((w) => w.text).join(' ');
    const confidence =
      kept.length === 0 ? 0 : Math.round(kept.reduce((s, w) => s + w.confidence, 0) / kept.length);
    return { words, text, confidence, box };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const abort of this.pending) abort(new OcrError('the OCR reader was closed'));
    await this.dropWorker();
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  /** Tesseract's TSV for one image: a rendered line, or a whole screen. */
  private recognise(pgm: Buffer, what: 'line' | 'screen'): Promise<unknown> {
    const job = this.queue.then(() => this.runJob(pgm, what));
    this.queue = job.catch(() => undefined);
    return job;
  }

  private async runJob(pgm: Buffer, what: 'line' | 'screen'): Promise<unknown> {
    if (this.closed) throw new OcrError('the OCR reader was closed');
    const starting = this.getWorker();
    const worker = await this.startedWithin(starting, START_TIMEOUT_MS);
    const ms = what === 'screen' ? this.screenTimeoutMs : this.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let abort: (e: Error) => void = () => undefined;
    const stop = new Promise<never>((_, reject) => {
      abort = reject;
      timer = setTimeout(() => reject(new OcrTimeoutError(`OCR took longer than ${ms} ms`)), ms);
    });
    // It may be aborted while no call is waiting on it: only the calls' races report it.
    stop.catch(() => undefined);
    this.pending.add(abort);
    // Every call into the worker: only while it is still the reader's (a dropped worker's calls
    // fail inside tesseract.js, out of anyone's reach), and given up when the read is stopped.
    const call = <T>(work: () => Promise<T>): Promise<T> => {
      if (this.worker !== starting) {
        const why = this.closed ? 'the OCR reader was closed' : 'the OCR worker stopped';
        return Promise.reject(new OcrError(why));
      }
      const answer = work();
      answer.catch(() => undefined); // it may still fail once stopped; nobody is waiting then
      return Promise.race([answer, stop]);
    };
    try {
      // The worker reads single lines; a whole screen in sparse-text mode, then back.
      if (what === 'screen') await call(() => worker.setParameters(SCREEN_MODE));
      const result = await call(() => worker.recognize(pgm, {}, { tsv: true, text: false }));
      if (what === 'screen') await call(() => worker.setParameters(LINE_MODE));
      return result.data.tsv;
    } catch (e) {
      // A worker that timed out or failed may be stuck: start a fresh one for the next read.
      await this.dropWorker(starting);
      throw e instanceof OcrError ? e : new OcrError(`OCR failed: ${String(e)}`);
    } finally {
      clearTimeout(timer);
      this.pending.delete(abort);
    }
  }

  private async startedWithin(
    starting: Promise<Worker> = this.getWorker(),
    ms = START_TIMEOUT_MS,
  ): Promise<Worker> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new OcrError(`the OCR worker did not start within ${ms} ms`)),
        ms,
      );
    });
    try {
      return await Promise.race([starting, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private getWorker(): Promise<Worker> {
    if (this.closed) return Promise.reject(new OcrError('the OCR reader is closed'));
    if (!this.worker) {
      const starting: Promise<Worker> = spawnWorker(this.languages, () => {
        if (this.worker !== starting) return;
        // The thread died: fail the read in flight now rather than at its timeout.
        for (const abort of this.pending) abort(new OcrError('the OCR worker stopped'));
        void this.dropWorker(starting);
      });
      this.worker = starting;
      starting.catch(() => {
        if (this.worker === starting) this.worker = null;
      });
    }
    return this.worker;
  }

  /**
   * Stops the worker (`only` that one, when given and still the reader's). Its thread is
   * terminated, not tesseract.js's handle on it: a call already inside the handle (recognize
   * awaits its image before it posts) then posts to a dead thread, which is ignored, instead of
   * to a handle that terminate() emptied, which throws where nothing can catch it.
   */
  private async dropWorker(only?: Promise<Worker>): Promise<void> {
    const w = this.worker;
    if (!w || (only && w !== only)) return;
    this.worker = null;
    try {
      const worker = await w;
      const thread = (worker as unknown as { worker?: { terminate?: () => Promise<number> } })
        .worker;
      if (thread?.terminate) await thread.terminate();
      else await worker.terminate();
    } catch {
      // it never started, or is already gone
    }
  }
}
