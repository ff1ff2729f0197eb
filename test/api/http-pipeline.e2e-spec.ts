import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import { Permissions } from '../../src/auth/permissions.decorator';
import { startApi, TestApi } from '../support/api';

/**
 * How the real pipeline (guard, validation, filters, body limits) treats routes. The API has no
 * write route yet, so the test mounts two of its own next to the real AppModule.
 */
class EchoDto {
  @IsString()
  name: string;

  @IsInt()
  @Min(1)
  @Max(10)
  amount: number;

  @IsIn(['up', 'down'])
  direction: string;
}

@Controller('test-only')
class ProbeController {
  @Post('echo')
  @Permissions('agents.operate')
  echo(@Body() body: EchoDto) {
    return { received: body };
  }

  @Get('boom')
  @Permissions('agents.operate')
  boom(): never {
    throw new Error(
      'connection to 10.0.0.5 failed: password authentication failed for user "warden"',
    );
  }

  @Get('forgotten')
  forgotten() {
    return { secret: 'a route without @Permissions must never answer' };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('HTTP pipeline', () => {
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    api = await startApi((root) => ({ module: class Root {}, imports: [root, ProbeModule] }));
    token = (await api.token('acme', 'olga', ['agents.operate'])).token;
  });

  afterAll(async () => {
    await api.close();
  });

  const echo = (options: {
    json?: unknown;
    body?: string | Buffer;
    headers?: Record<string, string>;
  }) => api.request('POST', '/test-only/echo', { token, ...options });

  it('passes a valid body', async () => {
    const ok = await echo({ json: { name: 'x', amount: 3, direction: 'up' } });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ received: { name: 'x', amount: 3, direction: 'up' } });
  });

  it.each([
    [{ name: 'x', amount: '3', direction: 'up' }, 'amount must be an integer number'],
    [{ name: 7, amount: 3, direction: 'up' }, 'name must be a string'],
    [{ name: 'x', amount: 11, direction: 'up' }, 'amount must not be greater than 10'],
    [
      { name: 'x', amount: 3, direction: 'sideways' },
      'direction must be one of the following values: up, down',
    ],
    [{ name: 'x', amount: 3, direction: 'up', admin: true }, 'property admin should not exist'],
    [{ amount: 3, direction: 'up' }, 'name must be a string'],
    [[1, 2, 3], 'name must be a string'],
  ])('refuses %j with 400 naming the field', async (json, message) => {
    const bad = await echo({ json });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringContaining(message),
    });
  });

  it('refuses malformed JSON with 400', async () => {
    const bad = await echo({
      body: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringMatching(/JSON/),
    });
  });

  it('refuses a body over 1 MiB with 413 and keeps serving', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024), amount: 1, direction: 'up' });
    const bad = await echo({ body: big, headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(413);
    expect(bad.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    const justUnder = JSON.stringify({
      name: 'x'.repeat(1024 * 1024 - 100),
      amount: 1,
      direction: 'up',
    });
    expect(
      (await echo({ body: justUnder, headers: { 'content-type': 'application/json' } })).status,
    ).toBe(201);
  });

  it('reads JSON in any content type from a bearer token, and refuses what is not JSON with 400', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const json = await echo({
      body: JSON.stringify({ name: 'x', amount: 3, direction: 'up' }),
      headers: form,
    });
    expect(json.status).toBe(201);
    const bad = await echo({ body: 'name=x', headers: form });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/send the body as JSON \(Content-Type: application\/json\)$/),
    });
  });

  it('refuses a body that is not application/json with 415 without a bearer token', async () => {
    const bad = await api.request('POST', '/test-only/echo', {
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bad.status).toBe(415);
    expect(bad.body).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
  });

  it('answers what the router refuses in the same shape: a path that does not decode, a long parameter', async () => {
    const undecodable = await api.request('GET', '/api/planners/%FF', { token });
    expect(undecodable.status).toBe(400);
    expect(Object.keys(undecodable.body).sort()).toEqual(['error', 'message', 'statusCode']);
    const long = await api.request('GET', `/api/planners/${'a'.repeat(300)}`, { token });
    expect(long.status).toBe(414);
    expect(long.body).toMatchObject({ statusCode: 414, error: 'URI Too Long' });
    expect(Object.keys(long.body).sort()).toEqual(['error', 'message', 'statusCode']);
  });

  it('reads a Content-Type header that is no media type as JSON with a bearer token, else 415 saying what to send', async () => {
    const body = JSON.stringify({ name: 'x', amount: 3, direction: 'up' });
    const read = await echo({ body, headers: { 'content-type': 'json' } });
    expect([read.status, read.body]).toEqual([201, { received: JSON.parse(body) }]);
    const bad = await api.request('POST', '/test-only/echo', {
      body,
      headers: { 'content-type': 'json' },
    });
    expect(bad.status).toBe(415);
    expect(bad.body.message).toMatch(/send the body as JSON \(Content-Type: application\/json\)$/);
  });

  it('answers an unexpected error with 500, a correlation id and no internals', async () => {
    const boom = await api.request('GET', '/test-only/boom', { token });
    expect(boom.status).toBe(500);
    expect(boom.body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: `internal error; correlation id ${boom.body.correlation_id}`,
      correlation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(boom.text).not.toMatch(/10\.0\.0\.5|password|warden"/);
  });

  it('closes a route that declares no permission, even to a token with every permission', async () => {
    const all = (
      await api.token('acme', 'root', [
        'computer_use.admin',
        'agents.operate',
        'agents.approve',
        'audit.read',
        'governance.weaken',
      ])
    ).token;
    const closed = await api.request('GET', '/test-only/forgotten', { token: all });
    expect(closed.status).toBe(403);
    expect(closed.text).not.toContain('must never answer');
    expect((await api.request('GET', '/test-only/forgotten')).status).toBe(403);
  });

  it('answers everything with X-Content-Type-Options: nosniff: JSON, errors, the router’s refusals, the console', async () => {
    const answers = [
      await api.request('GET', '/api/me', { token }),
      await api.request('GET', '/api/me'),
      await api.request('GET', '/test-only/boom', { token }),
      await api.request('POST', '/test-only/echo', { token, body: '{"name":' }),
      await api.request('GET', '/api/planners/%FF', { token }),
      await api.request('GET', '/api/no-such-route', { token }),
      await api.request('GET', '/health/live'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 500, 400, 400, 404, 200]);
    expect(answers.map((a) => a.headers.get('x-content-type-options'))).toEqual(
      answers.map(() => 'nosniff'),
    );
    const console = await fetch(`${api.url}/console/`);
    expect(console.status).toBe(200);
    expect(console.headers.get('x-content-type-options')).toBe('nosniff');
    const missing = await fetch(`${api.url}/console/assets/no-such-file.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 404 in the same shape for an unknown route', async () => {
    const missing = await api.request('GET', '/api/nothing-here', { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('counts requests by route pattern in /metrics', async () => {
    const metrics = await api.request('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(
      /warden_http_requests_total\{method="POST",route="\/test-only\/echo",status="400"\} \d+/,
    );
    expect(metrics.text).toMatch(
      /warden_http_request_duration_seconds_bucket\{le="0.05",method="POST",route="\/test-only\/echo"\}/,
    );
    expect(metrics.text).toContain('warden_process_cpu_seconds_total');
  });

  it('reports PostgreSQL and Redis in /health/ready', async () => {
    const ready = await api.request('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, redis: { status: 'up' } },
    });
  });
});
