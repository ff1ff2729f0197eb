import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../server';
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

/** Routes for tests and demos only (`--test-routes`): they change the screen without an action. */
export function registerSimTestRoutes(app: FastifyInstance, sim: SimBackend): void {
  app.get('/sim/events', async () => ({ events: sim.app.eventLog() }));

  app.post('/sim/poke', async (request) => {
    const body = objectBody(request.body);
    onlyFields(body, ['message']);
    const message = body.message;
    if (typeof message !== 'string' || message.length < 1 || message.length > 200) {
      throw new HttpError(400, 'message must be a string of 1 to 200 characters');
    }
    sim.poke(message);
    return { ok: true };
  });

  app.post('/sim/reset', async () => {
    sim.reset();
    return { ok: true };
  });

  app.post('/sim/blink', async (request) => {
    const body = objectBody(request.body);
    onlyFields(body, ['on']);
    if (typeof body.on !== 'boolean') throw new HttpError(400, 'on must be a boolean');
    sim.setBlink(body.on);
    return { ok: true, on: sim.blinking };
  });
}
