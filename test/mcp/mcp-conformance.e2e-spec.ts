/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance`) against the real `/mcp`: the
 * scenarios that apply to a server whose tools are its own (the suite's other server scenarios call
 * the reference server's test tools by name). The suite sends no token, so a small proxy in front
 * of the API adds the bearer header and passes everything else (the Host and Origin too) as it came.
 */
import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { startApi, type TestApi } from '../support/api';

jest.setTimeout(180_000);

/** With PUBLIC_URL set, as docs/mcp.md asks: a foreign Host and Origin are refused. */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

const CLI = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

describe('the MCP conformance suite', () => {
  let api: TestApi;
  let proxy: Server;
  let url: string;

  beforeAll(async () => {
    // The proxy first: its address is Warden's PUBLIC_URL, where clients reach it.
    const upstream: { target?: URL; token?: string } = {};
    proxy = createServer((incoming, outgoing) => {
      const { target, token } = upstream;
      if (!target || !token) return void outgoing.writeHead(503).end();
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, authorization: `Bearer ${token}` },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forward.on('error', () => outgoing.destroy());
      incoming.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    url = `${origin}/mcp`;
    api = await startApi(undefined, { PUBLIC_URL: origin });
    upstream.token = (await api.token('acme', 'olga', ['agents.operate'])).token;
    upstream.target = new URL(api.url);
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await api?.close();
  });

  it.each(SCENARIOS)('passes %s', async (scenario) => {
    const run = await promisify(execFile)(
      process.execPath,
      [CLI, 'server', '--url', url, '--scenario', scenario],
      { encoding: 'utf8', timeout: 120_000 },
    ).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
    const out = String(run.stdout ?? '');
    expect({ scenario, code: 'code' in run ? run.code : 0, out }).toMatchObject({ code: 0 });
    expect(out).toMatch(/Passed: (\d+)\/\1, 0 failed/);
  });
});
