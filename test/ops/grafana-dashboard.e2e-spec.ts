import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scripts/lib/processes';
import { startApi, TestApi } from '../support/api';
import { declaredNames } from '../support/prometheus-text';
import { SCRAPE_TOKEN } from '../support/api';

/**
 * docs/grafana-dashboard.json is a Grafana 10+ dashboard whose every query reads only metrics
 * Warden's /metrics declares: a renamed or removed metric fails here, not on someone's wall screen.
 */

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Array<{ refId: string; expr: string; datasource?: unknown }>;
  panels?: Panel[];
}

const dashboard = JSON.parse(
  readFileSync(path.join(ROOT, 'docs/grafana-dashboard.json'), 'utf8'),
) as { schemaVersion: number; uid: string; title: string; panels: Panel[]; templating: any };

function allPanels(panels: Panel[]): Panel[] {
  return panels.flatMap((p) => [p, ...allPanels(p.panels ?? [])]);
}

/** Every `expr` of every panel, and the template variables' queries. */
function queries(): string[] {
  const fromPanels = allPanels(dashboard.panels).flatMap((p) =>
    (p.targets ?? []).map((t) => t.expr),
  );
  const fromVariables = dashboard.templating.list
    .filter((v: any) => v.type === 'query')
    .map((v: any) => String(v.query?.query ?? v.query));
  return [...fromPanels, ...fromVariables];
}

describe('the Grafana dashboard', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it('is a Grafana 10+ dashboard model: panels with a type, a place and Prometheus targets', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(dashboard.title).toBeTruthy();
    const panels = allPanels(dashboard.panels);
    const ids = panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of panels) {
      expect(panel.type).toMatch(/^(row|stat|timeseries|bargauge|table)$/);
      expect(panel.gridPos.w).toBeGreaterThan(0);
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        expect(target.refId).toBeTruthy();
        expect(target.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      }
    }
  });

  it('reads only metrics Warden exposes, and every query reads one', async () => {
    const scrape = await api.request('GET', '/metrics', { token: SCRAPE_TOKEN });
    expect(scrape.status).toBe(200);
    const exposed = declaredNames(scrape.text);
    const used = new Set<string>();
    const readingNothing: string[] = [];
    for (const expr of queries()) {
      const names = expr.match(/\bwarden_[a-zA-Z0-9_]+/g) ?? [];
      if (names.length === 0) readingNothing.push(expr);
      for (const name of names) used.add(name);
    }
    expect(readingNothing).toEqual([]);
    const unknown = [...used].filter((name) => !exposed.has(name));
    expect(unknown).toEqual([]);
    // The dashboard shows each family of operations metrics.
    for (const family of [
      'warden_runs_started_total',
      'warden_runs_ended_total',
      'warden_steps_total',
      'warden_screen_changed_total',
      'warden_held_to_decided_seconds_bucket',
      'warden_decided_to_sent_seconds_bucket',
      'warden_model_input_tokens_total',
      'warden_model_output_tokens_total',
      'warden_model_cost_usd_total',
    ]) {
      expect(used).toContain(family);
    }
  });
});
