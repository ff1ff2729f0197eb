/**
 * Warden's own planner kinds, held to what each place that named them accepted before the table:
 * the families the deployment's config refuses as models, the rail, a script's fallback, the
 * catalog's entry and the planner built for an id.
 */
import { parseModelPlanners } from '../../config/model-planners';
import { PLANNER_KIND_FAMILIES } from '../../config/planner-id';
import { OWN_KIND_ENTRIES } from '../catalog/catalog-entries';
import { checkScript, show } from './check-script';
import { NavigatorPlanner } from './navigator/navigator-planner';
import { ownPlanner, plannedByModel, plannerKindOf } from './planner-kinds';

const SCRIPT = 'scripted-6f1c2a94-0e3b-4d6a-9b1c-2d3e4f5a6b7c';
const NAVIGATOR = 'navigator-2026-11-10-normal';
const STEPS = [{ action: { action: 'key', key: 'Enter' } }];

describe('planner kinds', () => {
  it('are the navigator and the scripts, which no model planner of the deployment may be', () => {
    expect(PLANNER_KIND_FAMILIES).toEqual(['navigator', 'scripted']);
    const model = { provider: 'anthropic', model: 'claude-sonnet-4-5', api_key_env: 'KEY' };
    for (const id of [
      'navigator-2027-01-01-normal',
      'scripted-2027-01-01-normal',
      'mcp-1-normal',
      'remote-1-normal',
    ]) {
      expect(parseModelPlanners(JSON.stringify([{ ...model, id }]))).toBe(
        'MODEL_PLANNERS[0].id: the families navigator, scripted, mcp, remote are not models',
      );
    }
  });

  it('know a planner by its family, compared lower-case', () => {
    expect(plannerKindOf(NAVIGATOR)).toBe(plannerKindOf('Navigator-1-normal'));
    expect(plannerKindOf(SCRIPT)?.railed).toBe(false);
    expect(plannerKindOf('anthropic-claude-sonnet-4.5-normal')).toBeNull();
    expect(plannerKindOf('navigator')).toBeNull();
    expect(plannerKindOf({ provider: 'anthropic' })).toBeNull();
  });

  it('looks only at steps a model plans', () => {
    expect(plannedByModel(null)).toBe(true);
    expect(plannedByModel({ provider: 'anthropic' })).toBe(true);
    expect(plannedByModel('scripted-6f1c2a94-0e3b-4d6a-9b1c-2d3e4f5a6b7c')).toBe(false);
    // A model of the catalog named by its id is still a model; anything else fails closed.
    expect(plannedByModel('anthropic-claude-sonnet-4.5-normal')).toBe(true);
    expect(plannedByModel('navigator-2026-11-10-normal')).toBe(true);
    expect(plannedByModel('SCRIPTED-6F1C2A94-0E3B-4D6A-9B1C-2D3E4F5A6B7C')).toBe(false);
  });

  it("refuse a script or the navigator as a script's fallback, in the words they were refused in", () => {
    expect(checkScript({ steps: STEPS, fallback: SCRIPT })).toEqual({
      ok: false,
      error: `fallback ${show(SCRIPT)}: a model planner (a catalog id or a model object), not a script`,
    });
    expect(checkScript({ steps: STEPS, fallback: NAVIGATOR.toUpperCase() })).toEqual({
      ok: false,
      error: `fallback ${show(NAVIGATOR.toUpperCase())}: a model planner (a catalog id or a model object); the navigator plans no single step`,
    });
  });

  it("list the navigator's entry in the catalog as it was", () => {
    expect(OWN_KIND_ENTRIES).toEqual([
      {
        id: NAVIGATOR,
        family: 'navigator',
        name: 'the navigator: presses the control whose name is nearest the task, asks no model',
        kind: 'navigator',
        runs: 'platform',
        pixels: false,
        public: false,
        tags: ['researcher'],
        programs: [],
      },
    ]);
    expect(Object.isFrozen(OWN_KIND_ENTRIES[0])).toBe(true);
  });

  it('build a new navigator for its id exactly, and nothing for any other', () => {
    const first = ownPlanner(NAVIGATOR);
    expect(first).toBeInstanceOf(NavigatorPlanner);
    expect(ownPlanner(NAVIGATOR)).not.toBe(first);
    expect(ownPlanner(NAVIGATOR.toUpperCase())).toBeNull();
    expect(ownPlanner('navigator-2027-01-01-normal')).toBeNull();
    expect(ownPlanner(SCRIPT)).toBeNull();
    expect(ownPlanner(null)).toBeNull();
  });
});
