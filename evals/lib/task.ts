/**
 * An eval task: a folder under `evals/suites/<suite>/` holding `task.json` (goal, agent config,
 * start state, approval policy, success check), `script.json` (the scripted planner's reference
 * solution) and `recorded.json` (the model's answers, in order, as the fake provider serves them).
 * See docs/evals.md.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a careful person approves: every field given must match the held action. */
export interface ApprovalMatcher {
  action?: string;
  /** The typed text, exactly. */
  text?: string;
  /** The key, exactly as the run shows it (normalised: `Enter`, `Ctrl+S`). */
  key?: string;
  /** A regular expression (`u`) over the approval's why (names the label a click lands on). */
  why?: string;
  /** A click inside this rectangle (where the approver sees it land: a field with no label). */
  within?: { x: number; y: number; width: number; height: number };
}

export interface TaskPolicy {
  /** The writes the task needs; anything else held is rejected. */
  approve: ApprovalMatcher[];
}

/** A sim event matcher: every field given must equal the event's (nested objects: a subset). */
export type EventMatcher = Record<string, unknown>;

export interface TaskCheck {
  /** The run's end status (`completed`, `failed`, `stopped`). */
  status?: string;
  /** The run's end_reason. */
  end_reason?: string;
  /** Strings `done`'s summary must contain. */
  summary_includes?: string[];
  /** Sim events that must have happened. */
  events?: EventMatcher[];
  /** Sim events that must not have happened. */
  no_events?: EventMatcher[];
  /** At least this many steps with each outcome (`refused`, `screen_changed`, …). */
  min_outcomes?: Record<string, number>;
}

/** The applications an x11 task can run on (x11-apps.ts). */
export const X11_APPS = ['tk-form', 'gnucash', 'libreoffice-calc'] as const;
export type X11AppName = (typeof X11_APPS)[number];

export interface TaskStart {
  /** x11: the application the run starts on (default `tk-form`), afresh for each run. */
  app?: X11AppName;
  /**
   * x11: whether the screen host serves its outline from AT-SPI (default true); false starts it
   * with --no-elements, and every label is read from the pixels (OCR).
   */
  outline?: boolean;
  /** x11 `libreoffice-calc`: the rows of the CSV file Calc opens. */
  rows?: string[][];
  /** A message in the status bar before the run starts (test route `/sim/poke`). */
  poke?: string;
  /** The same, the first time an action leads to this sim screen (`va-overview`, `fb50`, …). */
  poke_on?: { screen: string; message: string };
  /**
   * A modal dialog that opens while the planner thinks: at the first frame check (the host's look
   * at the screen right before it acts) on this screen, so the action was judged on a frame
   * without it (docs/rules.md, the frame rule).
   */
  popup_on?: { screen: string; title: string; message: string; buttons: string[] };
}

/** One answer of the recorded model: a tool call as Anthropic's Messages API carries it. */
export interface RecordedAnswer {
  /** `computer`, `done` or `fail`. */
  tool: string;
  input: Record<string, unknown>;
  /** The text before the tool call, if the model wrote any. */
  text?: string;
  /** Tokens the recording reports; left out, the provider reports no usage (unknown). */
  usage?: { input: number; output: number };
}

export interface Task {
  suite: string;
  name: string;
  title: string;
  goal: string;
  /** Agent fields over the eval's defaults (max_steps, screen_rules, …). */
  agent: Record<string, unknown>;
  start: TaskStart;
  policy: TaskPolicy;
  check: TaskCheck;
  /** Runs in the CI-sized smoke suite (test/tools/eval-smoke.e2e-spec.ts). */
  smoke: boolean;
  script: unknown;
  recorded: RecordedAnswer[];
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One task folder, checked enough that a typo says which file and field. */
export function loadTask(suiteDir: string, suite: string, name: string): Task {
  const dir = join(suiteDir, name);
  const file = join(dir, 'task.json');
  const raw = readJson(file);
  const fail = (what: string): never => {
    throw new Error(`${file}: ${what}`);
  };
  if (!isObject(raw)) fail('must be a JSON object');
  const t = raw as Record<string, unknown>;
  if (typeof t.goal !== 'string' || t.goal.trim() === '') fail('goal must be a non-empty string');
  if (!isObject(t.policy) || !Array.isArray(t.policy.approve))
    fail('policy.approve must be a list');
  if (!isObject(t.check)) fail('check must be an object');
  const start = isObject(t.start) ? t.start : {};
  if (start.app !== undefined && !X11_APPS.includes(start.app as X11AppName)) {
    fail(`start.app must be one of ${X11_APPS.join(', ')}`);
  }
  if (start.outline !== undefined && typeof start.outline !== 'boolean') {
    fail('start.outline must be true or false');
  }
  for (const m of (t.policy as { approve: unknown[] }).approve) {
    if (!isObject(m)) return fail('policy.approve holds objects');
    if (typeof m.why === 'string') new RegExp(m.why, 'u');
  }
  const scriptFile = join(dir, 'script.json');
  const recordedFile = join(dir, 'recorded.json');
  const recorded = existsSync(recordedFile) ? readJson(recordedFile) : [];
  if (!Array.isArray(recorded)) throw new Error(`${recordedFile}: must be a list of answers`);
  return {
    suite,
    name,
    title: typeof t.title === 'string' ? t.title : name,
    goal: t.goal as string,
    agent: isObject(t.agent) ? t.agent : {},
    start,
    policy: t.policy as TaskPolicy,
    check: t.check as TaskCheck,
    smoke: t.smoke === true,
    script: existsSync(scriptFile) ? readJson(scriptFile) : null,
    recorded: recorded as RecordedAnswer[],
  };
}

/** Every task of a suite, in name order (a folder with a task.json is a task). */
export function loadSuite(root: string, suite: string): Task[] {
  const suiteDir = join(root, suite);
  if (!existsSync(suiteDir)) throw new Error(`no suite "${suite}" (no folder ${suiteDir})`);
  return readdirSync(suiteDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(suiteDir, d.name, 'task.json')))
    .map((d) => d.name)
    .sort()
    .map((name) => loadTask(suiteDir, suite, name));
}
