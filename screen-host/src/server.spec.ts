/**
 * GET /elements and GET /health for a backend whose outline comes from another process (windows:
 * SAP GUI Scripting through the PowerShell helper): here the SAP GUI provider answered from the
 * fixtures, in place of the helper, through the real server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendHealth, OutlineElement, ScreenBackend } from './backends/backend';
import { SapGuiProvider } from './backends/windows/sapgui/sapgui-provider';
import { buildServer } from './server';

const TOKEN = 'a-token-of-at-least-thirty-two-characters';
const FIXTURES = join(__dirname, '../test/fixtures/sapgui');

function fixture(name: string, kind: 'snapshot' | 'outline'): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.${kind}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

function wire(name: string): Record<string, unknown> {
  const { trees, ...rest } = fixture(name, 'snapshot');
  return {
    ...rest,
    trees_b64: (trees as unknown[]).map((t) => Buffer.from(JSON.stringify(t)).toString('base64')),
  };
}

/** The windows backend's outline and health, with the helper's answers given. */
class SapGuiStandIn implements ScreenBackend {
  readonly name = 'windows';
  readonly sap: SapGuiProvider;
  constructor(answer: (read: string) => unknown) {
    this.sap = new SapGuiProvider('tree', async (read) => answer(read));
  }
  size() {
    return { width: 1920, height: 1080 };
  }
  async screenshot() {
    return { png: Buffer.alloc(0), width: 1920, height: 1080 };
  }
  async perform() {}
  elements(): Promise<OutlineElement[] | null> {
    return this.sap.outline(this.size());
  }
  async health(): Promise<BackendHealth> {
    const sapGui = await this.sap.health();
    return { elements: sapGui.state === 'ok', facts: { sap_gui: sapGui } };
  }
  typingTarget() {
    return 'unknown' as const;
  }
  async close() {}
}

function server(backend: ScreenBackend, elements = true) {
  return buildServer({
    backend,
    token: TOKEN,
    elements,
    actionLog: null,
    https: null,
    logger: false,
  });
}

const get = (app: ReturnType<typeof server>, url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });

describe('a backend whose outline is read from another process', () => {
  it('serves the outline it waits for, and says in GET /health where it comes from', async () => {
    const app = server(
      new SapGuiStandIn((read) =>
        read === 'probe'
          ? { state: 'ok', session: fixture('va02-overview', 'snapshot').session }
          : wire('va02-overview'),
      ),
    );
    const elements = await get(app, '/elements');
    expect(elements.statusCode).toBe(200);
    expect(elements.json()).toEqual(fixture('va02-overview', 'outline').elements);
    const health = await get(app, '/health');
    expect(health.json()).toMatchObject({
      backend: 'windows',
      width: 1920,
      capabilities: ['idempotency', 'action-lookup', 'frame_precondition', 'elements'],
      sap_gui: {
        state: 'ok',
        read_only: true,
        session: { system: 'PRD', client: '100', transaction: 'VA02' },
        outline: {
          served: (fixture('va02-overview', 'outline').elements as unknown[]).length,
          source: 'object_tree',
          transaction: 'VA02',
        },
      },
    });
    await app.close();
  });

  it('answers 404 when SAP GUI refuses, and GET /health names the refusal without the capability', async () => {
    const refusal = {
      refused: 'disabled_by_server',
      detail: '1 of 1 connections say DisabledByServer',
    };
    const app = server(new SapGuiStandIn(() => refusal));
    expect((await get(app, '/elements')).statusCode).toBe(404);
    const health = (await get(app, '/health')).json();
    expect(health.capabilities).not.toContain('elements');
    expect(health.sap_gui).toEqual({
      state: 'disabled_by_server',
      detail: refusal.detail,
      read_only: null,
      session: null,
      outline: refusal,
    });
    await app.close();
  });

  it('with --no-elements asks the backend nothing', async () => {
    let asked = 0;
    const app = server(
      new SapGuiStandIn(() => {
        asked++;
        return wire('va02-initial');
      }),
      false,
    );
    expect((await get(app, '/elements')).statusCode).toBe(404);
    expect((await get(app, '/health')).json()).not.toHaveProperty('sap_gui');
    expect(asked).toBe(0);
    await app.close();
  });
});
