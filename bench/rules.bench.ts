/**
 * npm run bench:rules — how long Warden takes to decide "may this be sent, and is it a write"
 * for one click, on the two label paths of docs/rules.md:
 *
 * - outline path: parse → validate → label from the screen outline → classify (pure, in-process);
 * - OCR path (warm worker): the label read from the pixels around the point, then classify;
 *   once from decoded RGBA (the engine decodes the PNG anyway for the pixel hash, docs/security.md),
 *   once from the PNG bytes (decode included).
 *
 * Goals (issue 4): outline path under 0.1 ms, OCR path under 20 ms at p50.
 */
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import {
  checkAction,
  classify,
  loadRules,
  type OutlineElement,
  type ScreenContext,
} from '../src/computer-use/actions';
import {
  findTextLine,
  OcrLabelReader,
  renderTextLine,
  type RgbaImage,
} from '../src/computer-use/ocr/ocr-label-reader';

const WIDTH = 1280;
const HEIGHT = 800;
const LABELS = [
  'Save',
  'Post',
  'Sichern',
  'Buchen',
  'Display',
  'Back',
  'Cancel',
  'Posting Date',
  'Löschen',
  'Freigeben',
  'Company Code',
  'Document Type',
  'Create',
  'Change',
  'Find',
  'Print',
  'Help',
];

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  size: number;
}

/** An SAP-like form: rows of framed buttons and labels in DejaVu at 12–14 px. */
function buildScreen(): { boxes: Box[]; outline: OutlineElement[]; rgba: RgbaImage; png: Buffer } {
  const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  GlobalFonts.registerFromPath(join(fontDir, 'DejaVuSans.ttf'), 'DejaVu Sans');
  const boxes: Box[] = [];
  let i = 0;
  for (let y = 60; y + 30 < HEIGHT; y += 34) {
    for (let x = 8; ;) {
      const name = LABELS[i % LABELS.length];
      const size = 12 + (i % 3);
      const width = Math.round(name.length * size * 0.7 + 24);
      if (x + width > WIDTH - 8) break;
      boxes.push({ name, x, y, width, height: 26, size });
      x += width + 8;
      i++;
    }
  }
  const canvas = createCanvas(WIDTH, HEIGHT);
  const g = canvas.getContext('2d');
  g.fillStyle = '#dfe6ee';
  g.fillRect(0, 0, WIDTH, HEIGHT);
  for (const b of boxes) {
    g.fillStyle = '#f7f7f7';
    g.fillRect(b.x, b.y, b.width, b.height);
    g.strokeStyle = '#7a8a99';
    g.strokeRect(b.x + 0.5, b.y + 0.5, b.width - 1, b.height - 1);
    g.fillStyle = '#1a1a1a';
    g.font = `${b.size}px "DejaVu Sans"`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(b.name, b.x + b.width / 2, b.y + b.height / 2);
  }
  const outline: OutlineElement[] = [
    {
      id: 'wnd',
      role: 'window',
      name: 'Sales Order',
      rect: { x: 0, y: 0, width: WIDTH, height: HEIGHT },
    },
    ...boxes.map((b, n) => ({
      id: `e${n}`,
      role: 'button',
      name: b.name,
      rect: { x: b.x, y: b.y, width: b.width, height: b.height },
    })),
  ];
  return {
    boxes,
    outline,
    rgba: { width: WIDTH, height: HEIGHT, data: g.getImageData(0, 0, WIDTH, HEIGHT).data },
    png: canvas.toBuffer('image/png'),
  };
}

function percentiles(ms: number[]): { p50: number; p99: number; n: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99), n: s.length };
}

function time<T>(fn: () => T): [T, number] {
  const t = process.hrtime.bigint();
  const r = fn();
  return [r, Number(process.hrtime.bigint() - t) / 1e6];
}

/** Wall time, and CPU time of the whole process (the OCR worker thread included). */
async function timeAsync<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  const r = await fn();
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  const cpu = process.cpuUsage(c);
  return [r, wall, (cpu.user + cpu.system) / 1000];
}

const rows: [string, ReturnType<typeof percentiles>, string, string][] = [];
const row = (name: string, ms: number[], goal = '', cpu: number[] = []) =>
  rows.push([name, percentiles(ms), cpu.length ? fmt(percentiles(cpu).p50) : '', goal]);
const fmt = (v: number) => (v < 0.1 ? v.toFixed(4) : v < 10 ? v.toFixed(2) : v.toFixed(1));

async function main(): Promise<void> {
  const { boxes, outline, rgba, png } = buildScreen();
  const rules = loadRules();
  const screen: ScreenContext = { width: WIDTH, height: HEIGHT, outline };
  const points = boxes.map((b) => ({
    x: Math.floor(b.x + b.width / 2),
    y: Math.floor(b.y + b.height / 2),
    name: b.name,
  }));

  // Outline path: the whole pure decision for a click, as the engine asks it.
  const outlineMs: number[] = [];
  const classifyMs: number[] = [];
  for (let round = 0; round < 60; round++) {
    for (const p of points) {
      const answer = { action: 'click', x: p.x, y: p.y };
      const [verdict, ms] = time(() => checkAction(answer, screen, rules));
      if (round >= 10) outlineMs.push(ms);
      const [, cms] = time(() =>
        classify({ action: 'click', x: p.x, y: p.y }, { outline: p.name }, rules),
      );
      if (round >= 10) classifyMs.push(cms);
      if (verdict.classification === 'invalid') throw new Error(verdict.why);
    }
  }
  row(`outline path: checkAction (${outline.length} elements)`, outlineMs, '< 0.1 ms p50');
  row('classify alone (label given)', classifyMs);

  // The rules' share of the OCR path: judging a reading (near misses included) and classifying.
  const readingMs: number[] = [];
  for (let round = 0; round < 60; round++) {
    for (const p of points) {
      const reading = { words: p.name.split(' ').map((text) => ({ text, confidence: 90 })) };
      const [, ms] = time(() =>
        classify({ action: 'click', x: p.x, y: p.y }, { ocr: reading }, rules),
      );
      if (round >= 10) readingMs.push(ms);
    }
  }
  row('classify alone (OCR reading given: near misses, confidence, letters)', readingMs);

  await ocrPath('deu+eng', new OcrLabelReader(), rgba, png, points, rules, true);
  await ocrPath(
    'deu only',
    new OcrLabelReader({ languages: ['deu'] }),
    rgba,
    png,
    points,
    rules,
    false,
  );

  console.log(
    `rules bench on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}`,
  );
  for (const note of notes) console.log(note);
  console.log('');
  console.log('| path | n | p50 ms | p99 ms | CPU p50 ms | goal |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- |');
  for (const [name, { p50, p99, n }, cpu, goal] of rows) {
    console.log(`| ${name} | ${n} | ${fmt(p50)} | ${fmt(p99)} | ${cpu} | ${goal} |`);
  }
  console.log('');
  console.log(
    'Wall times on a loaded machine include waiting for a core; CPU time is the work itself.',
  );
}

const notes: string[] = [];
const NO_TEXT = { unreadable: 'no_text' } as const;

async function ocrPath(
  languages: string,
  reader: OcrLabelReader,
  rgba: RgbaImage,
  png: Buffer,
  points: { x: number; y: number; name: string }[],
  rules: ReturnType<typeof loadRules>,
  full: boolean,
): Promise<void> {
  // OCR path, warm: one worker, started before timing.
  const [, startMs] = await timeAsync(() => reader.start());
  const sample = points.filter((_, n) => n % 2 === 0).slice(0, 60);
  const locateMs: number[] = [];
  const ocrRgbaMs: number[] = [];
  const ocrRgbaCpu: number[] = [];
  const ocrPngMs: number[] = [];
  const ocrPngCpu: number[] = [];
  let right = 0;
  for (const p of sample.slice(0, 5)) await reader.readLabelAtPixels(rgba, p.x, p.y); // warm-up
  for (let round = 0; round < 3; round++) {
    for (const p of sample) {
      const [, lms] = time(() => {
        const line = findTextLine(rgba, p.x, p.y);
        return line && renderTextLine(line);
      });
      locateMs.push(lms);
      const [label, ms, cpu] = await timeAsync(async () => {
        const l = await reader.readLabelAtPixels(rgba, p.x, p.y);
        classify({ action: 'click', x: p.x, y: p.y }, { ocr: l ?? NO_TEXT }, rules);
        return l;
      });
      ocrRgbaMs.push(ms);
      ocrRgbaCpu.push(cpu);
      if (label?.text === p.name) right++;
      if (round === 0 && full) {
        const [, pms, pcpu] = await timeAsync(async () => {
          const l = await reader.readLabelAt(png, p.x, p.y);
          return classify({ action: 'click', x: p.x, y: p.y }, { ocr: l ?? NO_TEXT }, rules);
        });
        ocrPngMs.push(pms);
        ocrPngCpu.push(pcpu);
      }
    }
  }
  await reader.close();
  row(
    `OCR path (${languages}), warm, from RGBA: read label + classify`,
    ocrRgbaMs,
    '< 20 ms p50',
    ocrRgbaCpu,
  );
  if (full) {
    row(
      `OCR path (${languages}), warm, from PNG: decode + read + classify`,
      ocrPngMs,
      '',
      ocrPngCpu,
    );
    row('  of which: finding the text line (TypeScript)', locateMs);
  }
  notes.push(
    `OCR worker start (${languages}): ${startMs.toFixed(0)} ms; labels read exactly: ${right}/${ocrRgbaMs.length}`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
