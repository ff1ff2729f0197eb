import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fromWire,
  MAX_TREE_BYTES,
  readProbe,
  SapGuiProvider,
  type SapGuiRead,
} from './sapgui-provider';
import { readSnapshot } from './sapgui-snapshot';

const FIXTURES = join(__dirname, '../../../../test/fixtures/sapgui');
const SCREEN = { width: 1920, height: 1080 };

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.snapshot.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

/** A fixture as the helper sends it: each tree as base64 of its JSON text. */
function wire(name: string): Record<string, unknown> {
  const { trees, ...rest } = fixture(name);
  return {
    ...rest,
    trees_b64: (trees as unknown[]).map((t) =>
      Buffer.from(JSON.stringify(t), 'utf8').toString('base64'),
    ),
  };
}

describe('fromWire', () => {
  it('decodes each tree to what the fixture holds', () => {
    expect(readSnapshot(fromWire(wire('save-popup')))).toEqual(readSnapshot(fixture('save-popup')));
  });

  it('passes a refusal on as it is', () => {
    expect(fromWire({ refused: 'busy', detail: 'x' })).toEqual({ refused: 'busy', detail: 'x' });
  });

  it.each([
    ['no trees', { ...wire('va02-initial'), trees_b64: undefined }, 'unreadable'],
    ['a tree that is no base64', { ...wire('va02-initial'), trees_b64: ['%%%'] }, 'unreadable'],
    [
      'a tree that is no JSON',
      { ...wire('va02-initial'), trees_b64: [Buffer.from('{x').toString('base64')] },
      'unreadable',
    ],
    [
      'trees larger than the host takes',
      {
        ...wire('va02-initial'),
        trees_b64: [Buffer.alloc(MAX_TREE_BYTES + 1, 32).toString('base64')],
      },
      'too_large',
    ],
  ])('refuses %s', (_what, value, code) => {
    expect(fromWire(value)).toMatchObject({ refused: code });
  });
});

describe('readProbe', () => {
  it('reads a usable session: read-only as SAP says it, the session’s facts', () => {
    expect(readProbe({ state: 'ok', session: fixture('va02-initial').session })).toEqual({
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
        screen: '102',
      },
    });
  });

  it('reads a refusal; one it does not know is an error; anything else is unreadable', () => {
    expect(
      readProbe({
        refused: 'disabled_by_server',
        detail: '1 of 1 connections say DisabledByServer',
      }),
    ).toEqual({
      state: 'disabled_by_server',
      detail: '1 of 1 connections say DisabledByServer',
      read_only: null,
      session: null,
    });
    expect(readProbe({ refused: 'nonsense' })).toMatchObject({ state: 'error', detail: null });
    expect(readProbe('ok')).toMatchObject({ state: 'unreadable' });
  });
});

describe('SapGuiProvider', () => {
  function provider(mode: 'tree' | 'walk' | 'off', answer: (read: SapGuiRead) => unknown) {
    const asked: SapGuiRead[] = [];
    const sap = new SapGuiProvider(mode, async (read) => {
      asked.push(read);
      return answer(read);
    });
    return { sap, asked };
  }

  it('serves the mapped outline, and says what it served', async () => {
    const { sap, asked } = provider('tree', (read) =>
      read === 'probe' ? { state: 'ok', session: {} } : wire('status-error'),
    );
    const outline = await sap.outline(SCREEN);
    expect(outline?.find((e) => e.id === 'wnd[0]/sbar')).toMatchObject({ message_type: 'E' });
    expect(await sap.health()).toMatchObject({
      state: 'ok',
      outline: { served: outline?.length, source: 'walk', transaction: 'VA02' },
    });
    expect(asked).toEqual(['tree', 'probe']);
  });

  it('asks for the element-by-element read in walk mode', async () => {
    const { sap, asked } = provider('walk', () => wire('va02-initial'));
    await sap.outline(SCREEN);
    expect(asked).toEqual(['walk']);
  });

  it('serves nothing when SAP GUI refuses, and says why', async () => {
    const { sap } = provider('tree', (read) =>
      read === 'probe'
        ? { refused: 'scripting_disabled', detail: 'scripting is switched off on this PC' }
        : { refused: 'scripting_disabled', detail: 'scripting is switched off on this PC' },
    );
    expect(await sap.outline(SCREEN)).toBeNull();
    expect(await sap.health()).toEqual({
      state: 'scripting_disabled',
      detail: 'scripting is switched off on this PC',
      read_only: null,
      session: null,
      outline: { refused: 'scripting_disabled', detail: 'scripting is switched off on this PC' },
    });
  });

  it('serves nothing for a snapshot the mapping refuses (SAP GUI not in front)', async () => {
    const { sap } = provider('tree', (read) =>
      read === 'probe'
        ? { state: 'ok', session: {} }
        : { ...wire('va02-initial'), foreground: false },
    );
    expect(await sap.outline(SCREEN)).toBeNull();
    expect((await sap.health()).outline).toMatchObject({ refused: 'not_in_front' });
  });

  it('serves nothing when the helper fails, and health says so without throwing', async () => {
    const sap = new SapGuiProvider('tree', () =>
      Promise.reject(new Error('the PowerShell helper did not answer sapgui within 3500 ms')),
    );
    expect(await sap.outline(SCREEN)).toBeNull();
    expect(await sap.health()).toEqual({
      state: 'error',
      detail: 'the PowerShell helper did not answer sapgui within 3500 ms',
      read_only: null,
      session: null,
      outline: {
        refused: 'error',
        detail: 'the PowerShell helper did not answer sapgui within 3500 ms',
      },
    });
  });

  it('asks nothing when off', async () => {
    const { sap, asked } = provider('off', () => wire('va02-initial'));
    expect(sap.enabled).toBe(false);
    expect(await sap.outline(SCREEN)).toBeNull();
    expect(asked).toEqual([]);
  });
});
