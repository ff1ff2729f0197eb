import { VA02_EXAMPLE_SCRIPT } from '../../src/computer-use/planning/va02-example';
import type { ModelPlannerConfig } from '../../src/computer-use/settings/agent-config';
import { demoPlanner } from '../../src/computer-use/models/demo-planner';
import type { Schemas } from '@warden/client';
import { type Clients, ensure } from './clients';

/** The goal the operator gives the run; a model planner would read it, the script already knows it. */
export const DEMO_GOAL = 'Change the Req. Deliv. Date of order 4711 to 30.04.2026 in VA02 and save';

/** What plans the demo's run. */
export type DemoPlanner =
  | {
      kind: 'scripted';
      /** How the demo names it on screen. */
      describe: string;
      /** POST /api/planners/scripted body. */
      name: string;
      script: unknown;
    }
  | { kind: 'model'; describe: string; config: ModelPlannerConfig };

/**
 * Picks the demo's planner: a real model when ANTHROPIC_API_KEY or OPENAI_API_KEY is set (the key
 * stays in the environment; the agent names its variable), else the scripted VA02 example of
 * docs/api.md, which asks no model. Everything after it (held writes, approvals, the record) is the same.
 */
export function pickPlanner(env: NodeJS.ProcessEnv): DemoPlanner {
  const model = demoPlanner(env);
  if (model) {
    return {
      kind: 'model',
      describe: `${model.provider} model ${model.model} (key from ${model.api_key_env}; budget ${model.max_tokens_per_run} tokens)`,
      config: model,
    };
  }
  return {
    kind: 'scripted',
    describe: `scripted planner "VA02: order 4711 delivery date" (${VA02_EXAMPLE_SCRIPT.steps.length} steps, asks no model)`,
    name: 'VA02: order 4711 delivery date',
    script: VA02_EXAMPLE_SCRIPT,
  };
}

/**
 * What the agent's `planner` field names: the scripted planner, stored through the API as an admin
 * stores one; a model planner is named in place and needs no call.
 */
export async function agentPlanner(
  planner: DemoPlanner,
  as: Clients,
  adminToken: string,
): Promise<string | Schemas['ModelPlannerDto']> {
  // Unset fields are left out rather than sent as null (the request schema has no nulls).
  if (planner.kind === 'model') {
    const set = Object.entries(planner.config).filter(([, value]) => value !== null);
    return Object.fromEntries(set) as Schemas['ModelPlannerDto'];
  }
  const created = await as(adminToken).POST('/api/planners/scripted', {
    body: { name: planner.name, script: planner.script as Record<string, unknown> },
  });
  return ensure('POST /api/planners/scripted', created, 201).planner.id;
}
