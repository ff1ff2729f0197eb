import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http-error';
import type { SimBackend } from './sim-backend';

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const name of Object.keys(body)) {
    if (!allowed.includes(name)) throw new HttpError(400, `unknown field "${name}"`);
  }
}

/** Printable text (no control characters) of 1 to `max` characters. */
function isText(value: unknown, max: number): value is string {
  return (
    typeof value === 'string' &&
    value.trim().length > 0 &&
    [...value].length <= max &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u001f\u007f-\u009f]/.test(value)
  );
}

/** Routes for tests and demos only (`--test-routes`): they change the screen without an action. */
export function registerSimTestRoutes(app: FastifyInstance, sim: SimBackend): void {
  app.get('/sim/events', async () => ({ events: sim.app.eventLog() }));

  app.post('/sim/poke', async (request) => {
    const body = objectBody(request.body);
    onlyFields(body, ['message', 'faint']);
    const { message, faint = false } = body;
    if (typeof message !== 'string' || message.length < 1 || message.length > 200) {
      throw new HttpError(400, 'message must be a string of 1 to 200 characters');
    }
    if (typeof faint !== 'boolean') throw new HttpError(400, 'faint must be true or false');
    sim.poke(message, faint);
    return { ok: true };
  });

  /**
   * Opens a modal confirm dialog over the screen, as a system would while a model is thinking:
   * `{title, message, buttons}`; the first button commits what the screen holds. 409 while one is
   * open.
   */
  app.post('/sim/popup', async (request) => {
    const body = objectBody(request.body);
    onlyFields(body, ['title', 'message', 'buttons']);
    const { title, message, buttons } = body;
    if (!isText(title, 80))
      throw new HttpError(400, 'title must be a string of 1 to 80 characters');
    if (!isText(message, 200)) {
      throw new HttpError(400, 'message must be a string of 1 to 200 characters');
    }
    if (
      !Array.isArray(buttons) ||
      buttons.length < 1 ||
      buttons.length > 3 ||
      !buttons.every((b) => isText(b, 24))
    ) {
      throw new HttpError(400, 'buttons must be 1 to 3 strings of 1 to 24 characters');
    }
    if (sim.app.state.popup) throw new HttpError(409, 'a popup is already open');
    sim.popup({ title, message, buttons });
    return { ok: true };
  });

  /** `{field, value}`: an editable field changed as someone else would change it (modified). */
  app.post('/sim/prefill', async (request) => {
    const body = objectBody(request.body);
    onlyFields(body, ['field', 'value']);
    const { field, value } = body;
    if (!isText(field, 40))
      throw new HttpError(400, 'field must be a string of 1 to 40 characters');
    if (!isText(value, 40))
      throw new HttpError(400, 'value must be a string of 1 to 40 characters');
    try {
      sim.prefill(field, value);
    } catch (error) {
      throw new HttpError(409, (error as Error).message);
    }
    return { ok: true };
  });

  app.post('/sim/reset', async () => {
    sim.reset();
    return { ok: true };
  });

  /**
   * `{when: "before" | "after", delay_ms?}`: the next action fails (500), before or after it
   * acted, answering `delay_ms` (0 to 10000) later, as a host that hangs on its way to failing.
   */
  app.post('/sim/fail-next', async (request) => {
    const body = objectBody(request.body);
    onlyFields(body, ['when', 'delay_ms']);
    const { when, delay_ms: delayMs = 0 } = body;
    if (when !== 'before' && when !== 'after') {
      throw new HttpError(400, 'when must be "before" or "after"');
    }
    if (
      typeof delayMs !== 'number' ||
      !Number.isInteger(delayMs) ||
      delayMs < 0 ||
      delayMs > 10_000
    ) {
      throw new HttpError(400, 'delay_ms must be an integer from 0 to 10000');
    }
    sim.failNext = { when, delayMs };
    return { ok: true };
  });

  app.post('/sim/reencode', async (request) => {
    const body = objectBody(request.body);
    onlyFields(body, ['on']);
    if (typeof body.on !== 'boolean') throw new HttpError(400, 'on must be a boolean');
    sim.reencoding = body.on;
    return { ok: true, on: sim.reencoding };
  });

  app.post('/sim/blink', async (request) => {
    const body = objectBody(request.body);
    onlyFields(body, ['on']);
    if (typeof body.on !== 'boolean') throw new HttpError(400, 'on must be a boolean');
    sim.setBlink(body.on);
    return { ok: true, on: sim.blinking };
  });
}
