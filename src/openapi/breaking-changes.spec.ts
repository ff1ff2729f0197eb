import { readFileSync } from 'node:fs';
import path from 'node:path';
import { breakingChanges, majorOf } from './breaking-changes';

const read = (file: string): unknown =>
  JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'docs', file), 'utf8'));

describe('the API document against the last released one (docs/openapi.released.json)', () => {
  it('removes no operation, schema, field or enum value unless its major version changes', () => {
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

  it('reads the major of a version', () => {
    expect(majorOf({ info: { version: '2.0.1' } })).toBe(2);
    expect(majorOf({ info: {} })).toBeNaN();
  });
});
