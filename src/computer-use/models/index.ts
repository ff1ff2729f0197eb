/** The governed model call (docs/models.md). */
export { ModelsModule } from './models.module';
export { ModelsService, PROVIDERS, MAX_OUTPUT_TOKENS } from './models.service';
export type { ModelPlannerState } from './planner-state';
export { UsageService } from './usage.service';
export { TranscriptsService, type TranscriptView, type ModelCallView } from './transcripts.service';
export { ModelCall } from './model-call.entity';
export { ModelUsageDay } from './model-usage-day.entity';
export { BudgetExhaustedError, ModelCallError } from './model-errors';
export { defaultModel } from './default-model';
export { priceProblem } from './usable';
export { demoPlanner, DEMO_MODELS } from './demo-planner';
export { scaleFor, toScreen, toModel, insideModel, MODEL_SIZES, type ScreenScale } from './scaling';
