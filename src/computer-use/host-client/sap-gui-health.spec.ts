import { healthOf } from './host-answers';
import type { Answer } from './host-transport';
import { sapGuiHealthOf } from './sap-gui-health';
import { resolveTarget } from './screen-host-target';

const target = resolveTarget({
  screen_url: 'https://sapgui-host.test:8443',
  screen_token_env: 'WARDEN_SAP_GUI_HEALTH_SPEC_UNSET',
});

function answer(body: unknown): Answer {
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  };
}

describe("a windows host's sap_gui in GET /health", () => {
  it('is read from the health answer as the screen host sends it', () => {
    const health = healthOf(
      target,
      answer({
        backend: 'windows',
        capabilities: ['idempotency', 'elements'],
        sap_gui: {
          state: 'ok',
          detail: null,
          read_only: true,
          session: {
            system: 'PRD',
            client: '100',
            user: 'WARDEN01',
            language: 'EN',
            transaction: 'VA02',
            program: 'SAPMV45A',
            screen: '4001',
          },
          outline: { served: 46, source: 'object_tree', transaction: 'VA02' },
        },
      }),
      'GET /health',
    );
    expect(health.sapGui).toEqual({
      state: 'ok',
      detail: null,
      readOnly: true,
      session: { system: 'PRD', client: '100', user: 'WARDEN01', transaction: 'VA02' },
      outline: { served: 46, source: 'object_tree' },
    });
  });

  it('is absent for a host that sends none', () => {
    expect(healthOf(target, answer({ capabilities: [] }), 'GET /health')).not.toHaveProperty(
      'sapGui',
    );
  });

  it('reads a state it does not know as an error, and takes no control characters or endless text', () => {
    expect(
      sapGuiHealthOf({
        state: 'maybe',
        detail: `a\u0007b${'x'.repeat(400)}`,
        read_only: 'yes',
        session: 'PRD',
        outline: { refused: 'nonsense', detail: 7 },
      }),
    ).toEqual({
      state: 'error',
      detail: `a b${'x'.repeat(297)}…`,
      readOnly: null,
      session: null,
      outline: { refused: 'error', detail: null },
    });
    expect(sapGuiHealthOf({ state: 'ok', outline: { served: -1 } })?.outline).toBeNull();
    expect(sapGuiHealthOf('ok')).toBeUndefined();
  });
});
