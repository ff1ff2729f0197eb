import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Caller } from '../auth/caller';
import type { RunView } from '../computer-use/runs/run.view';
import type { RunsService } from '../computer-use/runs/runs.service';
import type { SettingsService } from '../computer-use/settings/settings.service';
import { MCP_PLANNER_ID } from '../computer-use/remote/mcp-family';
import { errorResult, heldFields, jsonResult, stepSummary } from './tool-results';

/**
 * Runs as tools (docs/mcp.md): the caller's agents, a run started with a goal, its state with its
 * steps and last screen, its cancel. Each is the runs API's own service, with its checks and audit.
 */

const runId = z.string().uuid().describe('a run id');

/** How many of a run's last steps its state lists. */
const STEPS_LISTED = 20;

export interface RunToolsDeps {
  runs: RunsService;
  settings: SettingsService;
  consoleBase: string;
}

function runFields(run: RunView, consoleBase: string): Record<string, unknown> {
  const approval = run.pending_approval;
  return {
    run_id: run.id,
    agent: run.agent,
    goal: run.goal,
    status: run.status,
    end_reason: run.end_reason,
    summary: run.summary,
    created_by: run.created_by,
    step_count: run.step_count,
    run_url: `${consoleBase}/console/runs/${run.id}`,
    ...(run.status === 'awaiting_approval' && approval
      ? { held: heldFields(approval, consoleBase) }
      : {}),
  };
}

export function registerRunTools(server: McpServer, caller: Caller, deps: RunToolsDeps): void {
  const { runs, settings, consoleBase } = deps;
  const guarded = async (work: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      return await work();
    } catch (error) {
      return errorResult(error);
    }
  };

  server.registerTool(
    'list_agents',
    {
      description:
        "The agents of the caller's tenant that runs can be started for, with their planner",
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(async () => {
        const current = await settings.current(caller.tenant);
        const agents = Object.entries(current?.config.agents ?? {}).map(([name, agent]) => ({
          name,
          system: agent.system ?? null,
          planner:
            typeof agent.planner === 'string' ? agent.planner : agent.planner ? 'model' : null,
          governed_computer: agent.planner === MCP_PLANNER_ID,
          require_write_approval: agent.require_write_approval,
        }));
        return jsonResult({ enabled: current?.config.enabled ?? false, agents });
      }),
  );

  server.registerTool(
    'start_run',
    {
      description: `Start a run of an agent with a goal (and params for a routine). For an agent whose planner is ${MCP_PLANNER_ID} you are its planner: call screenshot with the run_id, then one action tool per step.`,
      inputSchema: z.object({
        agent: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/),
        goal: z.string().min(1).max(2000),
        params: z.record(z.string(), z.string().max(500)).optional(),
      }),
    },
    ({ agent, goal, params }) =>
      guarded(async () => {
        const run = await runs.start(caller, { agent, goal, ...(params ? { params } : {}) });
        return jsonResult(runFields(run, consoleBase));
      }),
  );

  server.registerTool(
    'get_run',
    {
      description:
        "A run's status, its last steps and its last screen; a run waiting for a person says who may decide and links to the approval page",
      inputSchema: z.object({ run_id: runId }),
      annotations: { readOnlyHint: true },
    },
    ({ run_id }) =>
      guarded(async () => {
        const run = await runs.get(caller, run_id);
        const steps = (run.steps ?? []).slice(-STEPS_LISTED);
        const fields = { ...runFields(run, consoleBase), steps: steps.map((s) => stepSummary(s)) };
        const last = [...steps].reverse().find((s) => s.screen_sha256);
        const screen = last ? await runs.screen(caller, run_id, last.n).catch(() => null) : null;
        return {
          content: [
            ...(screen
              ? [
                  {
                    type: 'image' as const,
                    data: screen.png.toString('base64'),
                    mimeType: 'image/png',
                  },
                ]
              : []),
            { type: 'text', text: JSON.stringify(fields) },
          ],
          structuredContent: fields,
        };
      }),
  );

  server.registerTool(
    'cancel_run',
    {
      description: 'Cancel a run: it ends at once, a held write is never sent',
      inputSchema: z.object({ run_id: runId }),
      annotations: { destructiveHint: true },
    },
    ({ run_id }) =>
      guarded(async () => jsonResult(runFields(await runs.cancel(caller, run_id), consoleBase))),
  );
}
