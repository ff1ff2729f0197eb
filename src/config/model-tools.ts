/**
 * The tool follows the model (docs/models.md): config/model-tools.json says which computer-use tool
 * each model takes, a table of regular expressions over the model's name. Checked once when it
 * loads; a model no row knows is refused where a config names it, with the reason, rather than sent
 * to fail at the provider. Pure.
 */
import table from '../../config/model-tools.json';
import type { ModelProvider } from './names';

/** The computer-use tools Warden speaks, by provider. */
export const MODEL_TOOLS = {
  anthropic: ['computer_toolset_20260801', 'computer_20251124', 'computer_20250124'],
  openai: ['computer', 'computer_use_preview'],
} as const;

export type AnthropicTool = (typeof MODEL_TOOLS.anthropic)[number];
export type OpenAITool = (typeof MODEL_TOOLS.openai)[number];
/** `json`: an OpenAI-compatible server, asked for one JSON action (no tool). */
export type ModelTool = AnthropicTool | OpenAITool | 'json';

/**
 * The tools whose answer may hold several actions in one turn (a batch) and whose calls are
 * answered in the provider's own format (`tool_result`, `computer_call_output`).
 */
export const BATCH_TOOLS: ReadonlySet<ModelTool> = new Set([
  'computer_toolset_20260801',
  'computer',
]);

interface Row {
  model: RegExp;
  source: string;
  tool: AnthropicTool | OpenAITool;
  note: string;
}

function rowsOf(provider: 'anthropic' | 'openai'): Row[] {
  const raw = (table as Record<string, unknown>)[provider];
  if (!Array.isArray(raw)) throw new Error(`model-tools.json: ${provider} must be a list of rows`);
  return raw.map((r: unknown, i) => {
    const row = r as Record<string, unknown>;
    const at = `model-tools.json: ${provider}[${i}]`;
    const tools: readonly string[] = MODEL_TOOLS[provider];
    if (typeof row.model !== 'string' || !row.model.startsWith('^') || !row.model.endsWith('$')) {
      throw new Error(`${at}.model must be a regular expression anchored with ^ and $`);
    }
    if (typeof row.tool !== 'string' || !tools.includes(row.tool)) {
      throw new Error(`${at}.tool must be one of ${tools.join(', ')}`);
    }
    if (typeof row.note !== 'string' || row.note === '') throw new Error(`${at}.note is required`);
    return {
      model: new RegExp(row.model),
      source: row.model,
      tool: row.tool as AnthropicTool | OpenAITool,
      note: row.note,
    };
  });
}

const ROWS: Readonly<Record<'anthropic' | 'openai', Row[]>> = Object.freeze({
  anthropic: rowsOf('anthropic'),
  openai: rowsOf('openai'),
});

/** The tool a model takes, or null when the table does not know the model. */
export function toolOf(provider: ModelProvider, model: string): ModelTool | null {
  if (provider === 'openai-compatible') return 'json';
  return ROWS[provider].find((r) => r.model.test(model))?.tool ?? null;
}

/**
 * Why a model cannot be configured, or null: the table does not know which tool it takes. The
 * reason lists the models the table knows for that provider.
 */
export function unknownModel(provider: ModelProvider, model: string): string | null {
  if (toolOf(provider, model) !== null) return null;
  const known = ROWS[provider as 'anthropic' | 'openai'].map((r) => r.note).join('; ');
  return `Warden does not know which computer-use tool the ${provider} model "${model.slice(0, 100)}" takes (config/model-tools.json knows ${known}); name one of those models, or add a row for it to the table`;
}

/** The table's rows for a provider, as docs/models.md shows them. */
export function toolRows(
  provider: 'anthropic' | 'openai',
): Array<{ model: string; tool: string; note: string }> {
  return ROWS[provider].map((r) => ({ model: r.source, tool: r.tool, note: r.note }));
}
