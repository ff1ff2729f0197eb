/**
 * The screen host's HTTP surface (docs/screen-host.md): screenshot, action, elements, health, all behind one
 * bearer token. Everything that touches the desktop goes through `POST /action`, one at a time;
 * an action with a frame precondition is checked against the screen in the same turn of that
 * queue, so nothing else acts between the check and the action.
 */
import { FRAME_PRECONDITION_CAPABILITY, FRAME_SHA256_HEADER } from '@warden/protocol';
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkAction, CheckedAction, plainAction } from './actions';
import { ActionLog, loggableAction, RecordedKey } from './action-log';
import type { ScreenBackend } from './backends/backend';
import {
  FrameCheck,
  type FramePrecondition,
  type FrameRefusal,
  preconditionOf,
} from './frame-check';
import type { RawFrame } from './frames';
import { errorBody, HttpError } from './http-error';
import {
  IDEMPOTENCY_KEY_PATTERN,
  IdempotencyStore,
  SerialQueue,
  StoredAnswer,
} from './idempotency';
import { VERSION } from './version';

export const BODY_LIMIT = 64 * 1024;

export interface ServerOptions {
  /**
   * Check `X-Expect-Frame` and announce it (default true). False makes the host behave like one
   * from before the frame precondition: no `X-Frame-SHA256`, no capability, the headers ignored.
   */
  framePrecondition?: boolean;
  backend: ScreenBackend;
  token: string;
  /** Serve GET /elements (where the backend has an outline). */
  elements: boolean;
  actionLog: ActionLog | null;
  https: { cert: string | Buffer; key: string | Buffer } | null;
  /** Keys this host acted on before it started (from the action log): answered, never performed again. */
  recordedKeys?: RecordedKey[];
  logger: boolean;
  /** Registers backend-specific routes (the sim's test routes). */
  extraRoutes?: (app: FastifyInstance) => void;
  extraCapabilities?: string[];
}

/** What became of an action: an answer, and whether it is stored under the Idempotency-Key. */
interface Outcome {
  answer: StoredAnswer;
  /** False when nothing was performed (a failed precondition): the key may act later. */
  performed: boolean;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Compares in constant time: both sides are hashed to the same length first. */
export function tokenMatches(header: string | undefined, expected: Buffer): boolean {
  if (typeof header !== 'string') return false;
  const match = /^Bearer (.+)$/.exec(header);
  const presented = digest(match ? match[1] : '');
  return timingSafeEqual(presented, expected) && match !== null;
}

/** The answer a restarted host gives for a key its action log recorded. */
export function storedAnswerOf(recorded: RecordedKey): StoredAnswer {
  switch (recorded.outcome) {
    case 'performed':
      return { statusCode: 200, body: { ok: true, ms: recorded.ms } };
    case 'failed':
      return {
        statusCode: 500,
        body: errorBody(500, `the action could not be performed: ${recorded.error}`),
      };
    case 'unknown':
      return {
        statusCode: 500,
        body: errorBody(
          500,
          'the screen host stopped while performing this action: whether it reached the desktop is unknown',
        ),
      };
  }
}

export function buildServer(options: ServerOptions): FastifyInstance {
  const { backend } = options;
  const expectedToken = digest(options.token);
  const idempotency = new IdempotencyStore(1000);
  for (const recorded of options.recordedKeys ?? []) {
    idempotency.remember(recorded.key, storedAnswerOf(recorded));
  }
  const queue = new SerialQueue();
  const frameCheck = new FrameCheck(backend);
  const frames = options.framePrecondition ?? true;

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    https: options.https ?? null,
    logger: options.logger
      ? { level: 'info', redact: { paths: ['req.headers.authorization'], remove: true } }
      : false,
    // Warden and the host speak JSON only; the parser refuses __proto__ and constructor keys.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  }) as unknown as FastifyInstance;

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status = error.statusCode;
    const statusCode = typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
    if (statusCode >= 500) request.log.error({ err: error }, 'request failed');
    const message =
      statusCode >= 500 && !(error instanceof HttpError) ? 'internal error' : error.message;
    void reply.code(statusCode).send(errorBody(statusCode, message));
  });
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(errorBody(404, `no route ${request.method} ${request.url.split('?')[0]}`));
  });

  // Before the body is read: an unauthenticated client gets nothing, not even a body parse.
  app.addHook('onRequest', async (request, reply) => {
    if (!tokenMatches(request.headers.authorization, expectedToken)) {
      void reply
        .header('WWW-Authenticate', 'Bearer')
        .code(401)
        .send(errorBody(401, 'missing or wrong bearer token'));
      return reply;
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header('Cache-Control', 'no-store');
    return payload;
  });

  app.get('/screenshot', async (request, reply) => {
    let shot;
    let frame: RawFrame;
    try {
      shot = await backend.screenshot();
      // The frame hash of the pixels served, kept for a later X-Expect-Frame. A backend that
      // holds no pixels (windows) has its PNG decoded here.
      frame = frameCheck.served(shot);
    } catch (err) {
      request.log.error({ err }, 'screenshot failed');
      const message = err instanceof Error ? err.message : String(err);
      throw new HttpError(500, `the screenshot failed: ${message}`);
    }
    reply
      .header('Content-Type', 'image/png')
      .header('X-Screen-Width', String(shot.width))
      .header('X-Screen-Height', String(shot.height));
    if (frames) reply.header(FRAME_SHA256_HEADER, frame.sha256);
    return reply.send(shot.png);
  });

  app.get('/elements', async () => {
    const outline = options.elements ? await backend.elements() : null;
    if (!outline)
      throw new HttpError(404, `the ${backend.name} screen host serves no element outline`);
    return outline;
  });

  app.get('/health', async () => {
    const { width, height } = backend.size();
    const capabilities = ['idempotency', 'action-lookup'];
    if (frames) capabilities.push(FRAME_PRECONDITION_CAPABILITY);
    let facts: Record<string, unknown> = {};
    if (options.elements && backend.health) {
      const said = await backend.health();
      if (said.elements) capabilities.push('elements');
      facts = said.facts ?? {};
    } else if (options.elements && (await backend.elements()) !== null) {
      capabilities.push('elements');
    }
    capabilities.push(...(options.extraCapabilities ?? []));
    return { ...facts, backend: backend.name, width, height, version: VERSION, capabilities };
  });

  const perform = (
    action: CheckedAction,
    key: string | null,
    log: FastifyRequest['log'],
    precondition: FramePrecondition | null,
  ) =>
    queue.run(async (): Promise<Outcome> => {
      const typing = action.action === 'type' ? backend.typingTarget() : 'plain';
      const logged = loggableAction(action, typing);
      const target =
        action.action === 'click' || action.action === 'double_click' ? action.target : undefined;
      if (precondition) {
        // In the queue's turn: nothing acts between this look at the screen and the action.
        let refused: FrameRefusal | null;
        try {
          refused = await frameCheck.refusal(precondition);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          log.error({ err, idempotency_key: key }, 'frame check failed');
          return {
            performed: false,
            answer: {
              statusCode: 503,
              body: errorBody(
                503,
                `the screen could not be captured to check the frame: ${message}; nothing was performed`,
              ),
            },
          };
        }
        if (refused) {
          options.actionLog?.append({
            time: new Date().toISOString(),
            backend: backend.name,
            idempotency_key: key,
            action: logged,
            outcome: 'refused',
            error: refused.code,
          });
          log.info(
            { action: logged.action, target, idempotency_key: key, refused: refused.code },
            'action refused: frame precondition',
          );
          return {
            performed: false,
            answer: { statusCode: 409, body: errorBody(409, refused.message, refused.code) },
          };
        }
      }
      const started = performance.now();
      // Written before the desktop is touched: a host that dies now will not act on this key again.
      if (key !== null) {
        options.actionLog?.append({
          time: new Date().toISOString(),
          backend: backend.name,
          idempotency_key: key,
          action: logged,
          outcome: 'started',
        });
      }
      try {
        await backend.perform(action);
        const ms = Math.round((performance.now() - started) * 100) / 100;
        options.actionLog?.append({
          time: new Date().toISOString(),
          backend: backend.name,
          idempotency_key: key,
          action: logged,
          outcome: 'performed',
          ms,
        });
        log.info({ action: logged.action, target, idempotency_key: key, ms }, 'action performed');
        return { performed: true, answer: { statusCode: 200, body: { ok: true, ms } } };
      } catch (err) {
        const ms = Math.round((performance.now() - started) * 100) / 100;
        const message = err instanceof Error ? err.message : String(err);
        options.actionLog?.append({
          time: new Date().toISOString(),
          backend: backend.name,
          idempotency_key: key,
          action: logged,
          outcome: 'failed',
          ms,
          error: message,
        });
        log.error({ action: logged.action, idempotency_key: key, err }, 'action failed');
        // Stored as it is: the action may have reached the desktop half-way.
        return {
          performed: true,
          answer: {
            statusCode: 500,
            body: errorBody(500, `the action could not be performed: ${message}`),
          },
        };
      }
    });

  app.post('/action', async (request, reply) => {
    const checked = checkAction(request.body, backend.size());
    if (!checked.ok) throw new HttpError(400, checked.reason);
    const precondition = frames ? preconditionOf(request.headers) : null;
    const header = request.headers['idempotency-key'];
    if (header === undefined) {
      const { answer } = await perform(checked.action, null, request.log, precondition);
      return reply.code(answer.statusCode).send(answer.body);
    }
    if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) {
      throw new HttpError(400, 'Idempotency-Key must be 1 to 200 printable ASCII characters');
    }
    const fingerprint = createHash('sha256')
      .update(JSON.stringify(plainAction(checked.action)))
      .digest('hex');
    for (;;) {
      const claim = idempotency.claim(header, fingerprint);
      if (claim.kind === 'mismatch') {
        throw new HttpError(409, 'this Idempotency-Key was already used for a different action');
      }
      if (claim.kind === 'replay') {
        const answer = await claim.answer;
        // The request in flight with this key was refused and stored nothing: try it ourselves.
        if (answer === null) continue;
        request.log.info({ idempotency_key: header }, 'idempotent replay: not performed again');
        return reply
          .code(answer.statusCode)
          .header('Idempotency-Replayed', 'true')
          .send(answer.body);
      }
      let outcome: Outcome;
      try {
        outcome = await perform(checked.action, header, request.log, precondition);
      } catch (err) {
        claim.release(); // nothing reached the backend (perform catches what the backend throws)
        throw err;
      }
      // A refused precondition is never stored: the same key may act later on a matching frame.
      if (outcome.performed) claim.settle(outcome.answer);
      else claim.release();
      return reply.code(outcome.answer.statusCode).send(outcome.answer.body);
    }
  });

  /**
   * Was this key performed here, and how did it end? Warden asks after a lost or failed answer
   * instead of sending again. The stored answer as it was, status included (a failed action is
   * its 500, not a 200), marked `Idempotency-Replayed: true`; 404 when nothing is stored.
   */
  app.get('/actions/:key', async (request, reply) => {
    const { key } = request.params as { key: string };
    const answer = await idempotency.answerOf(key);
    if (!answer) throw new HttpError(404, 'no action with this Idempotency-Key was performed here');
    return reply.code(answer.statusCode).header('Idempotency-Replayed', 'true').send(answer.body);
  });

  options.extraRoutes?.(app);
  return app;
}
