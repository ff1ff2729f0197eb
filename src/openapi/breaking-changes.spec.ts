import { readFileSync } from 'node:fs';
import path from 'node:path';
import { breakingChanges, majorOf } from './breaking-changes';

const read = (file: string): unknown =>
  JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'docs', file), 'utf8'));

describe('the API document against the last released one (docs/openapi.released.json)', () => {
  it('breaks nothing an integrator built against unless its major version changes', () => {
    const released = read('openapi.released.json');
    const current = read('openapi.json');
    expect(majorOf(current)).toBeGreaterThanOrEqual(majorOf(released));
    if (majorOf(current) > majorOf(released)) return;
    expect(breakingChanges(released, current)).toEqual([]);
  });
});

describe('breakingChanges', () => {
  const doc = (run: Record<string, unknown>, paths: Record<string, unknown> = {}) => ({
    info: { version: '1.2.3' },
    paths: { '/api/runs': { get: { responses: {} }, post: { responses: {} } }, ...paths },
    components: { schemas: { Run: run } },
  });
  const run = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      status: { type: 'string', enum: ['queued', 'running'] },
      steps: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
    },
  };

  it('finds nothing between a document and itself, or one that only adds', () => {
    expect(breakingChanges(doc(run), doc(run))).toEqual([]);
    const more = structuredClone(run) as any;
    more.properties.summary = { type: 'string' };
    more.properties.status.enum.push('stopped');
    expect(breakingChanges(doc(run), doc(more, { '/api/more': { get: {} } }))).toEqual([]);
  });

  it('finds an operation, a schema, a field (nested too) and an enum value removed', () => {
    const less = structuredClone(run) as any;
    delete less.properties.id;
    less.properties.status.enum = ['running'];
    delete less.properties.steps.items.properties.n;
    const current = doc(less) as any;
    delete current.paths['/api/runs'].post;
    current.components.schemas = { RunView: less };
    expect(breakingChanges(doc(run), current)).toEqual([
      'operation removed: POST /api/runs',
      'schema removed: Run',
    ]);
    current.components.schemas = { Run: less };
    expect(breakingChanges(doc(run), current)).toEqual([
      'operation removed: POST /api/runs',
      'field removed: components/schemas/Run/properties/id',
      'enum value removed: "queued" at components/schemas/Run/properties/status/enum',
      'field removed: components/schemas/Run/properties/steps/items/properties/n',
    ]);
  });

  it('compares what a reference stands for when it now refers elsewhere, or where it was inline', () => {
    const pageOf = (item: string) => ({
      type: 'object',
      properties: {
        items: { type: 'array', items: { $ref: item } },
        next_cursor: { type: 'string' },
      },
    });
    const listed = (schema: unknown) => ({
      paths: {
        '/api/runs': {
          get: { responses: { 200: { content: { 'application/json': { schema } } } } },
        },
      },
      components: {
        schemas: {
          Run: run,
          RunPage: pageOf('#/components/schemas/Run'),
          Catalog: { type: 'object', properties: { planners: { type: 'array' } } },
        },
      },
    });
    const answer = 'paths//api/runs/get/responses/200/content/application/json/schema';
    // The same answer, now a reference to another schema: fields gone from what the client reads.
    expect(
      breakingChanges(
        listed({ $ref: '#/components/schemas/RunPage' }),
        listed({ $ref: '#/components/schemas/Catalog' }),
      ),
    ).toEqual([
      `field removed: ${answer}/properties/items`,
      `field removed: ${answer}/properties/next_cursor`,
    ]);
    // Inline before, a reference to the same shape now: nothing lost.
    expect(
      breakingChanges(
        listed(pageOf('#/components/schemas/Run')),
        listed({ $ref: '#/components/schemas/RunPage' }),
      ),
    ).toEqual([]);
    // A reference that now points at a schema referring to itself ends.
    const tree = { type: 'object', properties: { child: { $ref: '#/components/schemas/Tree' } } };
    const selfish = (schema: unknown) => ({
      paths: {},
      components: {
        schemas: {
          Tree: tree,
          Other: structuredClone(tree),
          Holder: { type: 'object', properties: { t: schema } },
        },
      },
    });
    expect(
      breakingChanges(
        selfish({ $ref: '#/components/schemas/Tree' }),
        selfish({ $ref: '#/components/schemas/Other' }),
      ),
    ).toEqual([]);
  });

  it('finds a field newly required in a request body, not in an answer', () => {
    const body = (required: string[]) => ({
      type: 'object',
      required,
      properties: { goal: { type: 'string' }, agent: { type: 'string' } },
    });
    const api = (request: unknown, answer: unknown) => ({
      paths: {
        '/api/runs': {
          post: {
            requestBody: {
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/StartRun' } },
              },
            },
            responses: { 201: { content: { 'application/json': { schema: answer } } } },
          },
        },
      },
      components: { schemas: { StartRun: request } },
    });
    expect(
      breakingChanges(api(body(['agent']), body([])), api(body(['agent', 'goal']), body(['goal']))),
    ).toEqual(['field now required in a request: components/schemas/StartRun/properties/goal']);
    expect(
      breakingChanges(api(body(['agent', 'goal']), body([])), api(body(['agent']), body([]))),
    ).toEqual([]);
  });

  it('finds a type changed, and reports nothing more below it', () => {
    const changed = structuredClone(run) as any;
    changed.properties.steps = { type: 'string' };
    expect(breakingChanges(doc(run), doc(changed))).toEqual([
      'type changed: array → string at components/schemas/Run/properties/steps/type',
    ]);
  });

  it('matches parameters by where and name, and finds one removed, added required or made required', () => {
    const op = (parameters: unknown[]) => ({
      paths: { '/api/runs': { get: { parameters, responses: {} } } },
    });
    const limit = { in: 'query', name: 'limit', schema: { type: 'integer' } };
    const status = {
      in: 'query',
      name: 'status',
      schema: { type: 'string', enum: ['running', 'failed'] },
    };
    expect(breakingChanges(op([limit, status]), op([status, limit]))).toEqual([]);
    expect(
      breakingChanges(
        op([limit, status]),
        op([
          { ...status, schema: { type: 'string', enum: ['running'] } },
          { ...limit, required: true },
          { in: 'header', name: 'x-tenant', required: true },
        ]),
      ),
    ).toEqual([
      'enum value removed: "failed" at GET /api/runs query status',
      'parameter now required: GET /api/runs query limit',
      'parameter now required: GET /api/runs header x-tenant',
    ]);
    expect(breakingChanges(op([limit, status]), op([status]))).toEqual([
      'parameter removed: GET /api/runs query limit',
    ]);
  });

  it('reads a oneOf as a set: an alternative added in front is no change, one gone is', () => {
    const planner = (...oneOf: unknown[]) =>
      doc({ type: 'object', properties: { planner: { oneOf } } });
    const script = { type: 'string', pattern: '^scripted-' };
    const model = { type: 'object', properties: { model: { type: 'string' } } };
    expect(
      breakingChanges(planner(script, model), planner({ type: 'string' }, script, model)),
    ).toEqual([]);
    expect(breakingChanges(planner(script, model), planner(script))).toEqual([
      'alternative removed: type object at components/schemas/Run/properties/planner/oneOf/1',
    ]);
  });

  it('reads the major of a version', () => {
    expect(majorOf({ info: { version: '2.0.1' } })).toBe(2);
    expect(majorOf({ info: {} })).toBeNaN();
  });
});
