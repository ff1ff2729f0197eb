import type { ModelPlannerConfig } from '../settings/agent-config';
import type { ModelsService } from '../models/models.service';
import type { Planner, PlanningContext, PlanResult } from '../planner-contract/planner';

/**
 * A planner that asks a model (docs/models.md). All of the work is the governed model call in
 * `models/`: budget, prompt, scaling, guards, retries and transcript apply to every call.
 */
export class ModelPlanner implements Planner {
  constructor(
    readonly config: ModelPlannerConfig,
    private readonly models: ModelsService,
  ) {}

  plan(context: PlanningContext): Promise<PlanResult> {
    return this.models.plan(this.config, context);
  }
}
