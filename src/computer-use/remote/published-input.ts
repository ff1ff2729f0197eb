/**
 * What a remote planner's worker is given for one step (docs/planners.md "Remote planners"; the JSON
 * Schema is in docs/planners.md): the step as the engine gives any planner. Pure.
 */
import type { OutlineElement } from '../actions';
import type { ObservedScreen, PlanningContext } from '../planner-contract/planner';

/** The version of the published input's shape, in its `schema` field. */
export const INPUT_SCHEMA = 'warden.planner-input/1';

/** The most outline elements and history entries published (a planner needs no more). */
export const MAX_ELEMENTS = 500;
export const MAX_HISTORY = 40;

export interface PublishedInput {
  schema: typeof INPUT_SCHEMA;
  planner: string;
  task: string;
  system: string | null;
  step: number;
  max_steps: number;
  frame: { id: string; png_sha256: string; width: number; height: number };
  outline: { elements: PublishedElement[]; text: string } | null;
  focused_window: { title: string | null } | null;
  history: PublishedStep[];
  last_outcome: string | null;
  image: { media_type: 'image/png'; base64: string } | null;
}

export interface PublishedElement {
  id: string | null;
  role: string;
  name: string;
  rect: { x: number; y: number; width: number; height: number };
  value?: string;
  description?: string;
  states?: string[];
  area?: string;
}

export interface PublishedStep {
  n: number;
  action: unknown;
  classification: string | null;
  outcome: string | null;
  why: string | null;
  error: string | null;
}

/**
 * The frame's id: the host's frame hash where it sends one, else the pixel hash (same definition).
 * On a screen with the agent's `redact_regions` black, the hash of the pixels as published: the
 * host's hash is of the real frame, and a worker holding it could test guesses of what the regions
 * hide without end.
 */
export function frameId(
  screen: Pick<ObservedScreen, 'frameSha256' | 'pixelSha256' | 'hiddenSha256'>,
): string {
  if (screen.hiddenSha256) return screen.pixelSha256;
  return screen.frameSha256 ?? screen.pixelSha256;
}

function element(e: OutlineElement): PublishedElement {
  const out: PublishedElement = {
    id: typeof e.id === 'string' ? e.id : null,
    role: String(e.role ?? ''),
    name: String(e.name ?? ''),
    rect: { x: e.rect.x, y: e.rect.y, width: e.rect.width, height: e.rect.height },
  };
  // A password field's value is never served by the host; never published either way.
  if (typeof e.value === 'string' && !e.password) out.value = e.value;
  if (typeof e.description === 'string' && e.description !== '') out.description = e.description;
  if (Array.isArray(e.states) && e.states.length > 0) out.states = [...e.states];
  if (typeof e.area === 'string') out.area = e.area;
  return out;
}

/** The outline as text: one line per element with a name or a value, in the host's order. */
export function outlineText(elements: PublishedElement[]): string {
  return elements
    .filter((e) => e.name !== '' || e.value !== undefined)
    .map((e) => `${e.role} "${e.name}"${e.value !== undefined ? ` = "${e.value}"` : ''}`)
    .join('\n');
}

/** The window the screen shows: the outline's title element, else the modal dialog's. */
function focusedWindow(outline: OutlineElement[] | null): { title: string | null } | null {
  if (!outline) return null;
  const title =
    outline.find((e) => String(e.role).toLowerCase() === 'title') ??
    outline.find((e) => e.area === 'dialog' && e.states?.includes('modal'));
  return { title: title && typeof title.name === 'string' ? title.name : null };
}

/** The step's input for a remote planner; the screenshot only when the family has `pixels`. */
export function publishedInput(
  planner: string,
  context: Pick<PlanningContext, 'goal' | 'system' | 'step' | 'screen' | 'history'> & {
    maxSteps: number;
  },
  pixels: boolean,
): PublishedInput {
  const { screen } = context;
  const elements = screen.outline ? screen.outline.slice(0, MAX_ELEMENTS).map(element) : null;
  const history = context.history.slice(-MAX_HISTORY).map((h) => ({
    n: h.n,
    action: h.action,
    classification: h.classification,
    outcome: h.outcome,
    why: h.why,
    error: h.error,
  }));
  return {
    schema: INPUT_SCHEMA,
    planner,
    task: context.goal,
    system: context.system,
    step: context.step,
    max_steps: context.maxSteps,
    frame: {
      id: frameId(screen),
      png_sha256: screen.sha256,
      width: screen.width,
      height: screen.height,
    },
    outline: elements ? { elements, text: outlineText(elements) } : null,
    focused_window: focusedWindow(screen.outline),
    history,
    last_outcome: context.history.at(-1)?.outcome ?? null,
    image: pixels ? { media_type: 'image/png', base64: screen.png.toString('base64') } : null,
  };
}
