import type { McpServer } from '@modelcontextprotocol/server';
import { ACTION_LIMITS, SCROLL_DIRECTIONS } from '@warden/protocol';
import * as z from 'zod';
import type { Caller } from '../auth/caller';
import type { ComputerSession } from './computer-session.service';
import { errorResult, sessionResult } from './tool-results';

/**
 * The governed computer's tools (docs/mcp.md): `screenshot`, one tool per action of Warden's
 * vocabulary, each naming the frame it was decided on, and `approval_status` for a held write.
 */

const runId = z.string().uuid().describe('the run of the session (start_run answers it)');
const frameId = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe('the frame_id of the screen this action was decided on (screenshot answers it)');
const coordinate = z.number().int().min(0).max(100_000);
const message = z.string().min(1).max(ACTION_LIMITS.messageMax);

/** Each action of the vocabulary: its tool's description and its fields beside `run_id`, `frame_id`. */
const ACTIONS = {
  click: {
    description: "Click at (x, y) in the frame's coordinates; target names what is clicked",
    fields: {
      x: coordinate,
      y: coordinate,
      target: z.string().max(ACTION_LIMITS.targetMax).optional(),
    },
  },
  double_click: {
    description: "Double-click at (x, y) in the frame's coordinates",
    fields: {
      x: coordinate,
      y: coordinate,
      target: z.string().max(ACTION_LIMITS.targetMax).optional(),
    },
  },
  type: {
    description: 'Type text into the focused field',
    fields: { text: z.string().min(1).max(ACTION_LIMITS.textMax) },
  },
  key: {
    description: 'Press a key or a combination (Tab, Enter, ctrl+s, F3)',
    fields: { key: z.string().min(1).max(100) },
  },
  scroll: {
    description: 'Scroll at (x, y) by amount notches (1 to 10, default 3)',
    fields: {
      x: coordinate,
      y: coordinate,
      direction: z.enum(SCROLL_DIRECTIONS as [string, ...string[]]),
      amount: z.number().int().min(ACTION_LIMITS.amountMin).max(ACTION_LIMITS.amountMax).optional(),
    },
  },
  wait: {
    description: 'Wait for the screen (0.1 to 10 seconds)',
    fields: { seconds: z.number().min(ACTION_LIMITS.secondsMin).max(ACTION_LIMITS.secondsMax) },
  },
  done: { description: 'End the run: the goal is reached', fields: { summary: message } },
  fail: { description: 'End the run: the goal cannot be reached', fields: { reason: message } },
} as const;

export function registerComputerTools(
  server: McpServer,
  caller: Caller,
  session: ComputerSession,
  consoleBase: string,
): void {
  const answer = async (work: () => Promise<Parameters<typeof sessionResult>[0]>) => {
    try {
      return sessionResult(await work(), consoleBase);
    } catch (error) {
      return errorResult(error);
    }
  };

  server.registerTool(
    'screenshot',
    {
      description:
        "The screen of a governed-computer session as an image, its frame_id and the outline text where the screen host has one; or the held write, or the run's end",
      inputSchema: z.object({ run_id: runId }),
      annotations: { readOnlyHint: true },
    },
    ({ run_id }) => answer(() => session.look(caller, run_id)),
  );

  for (const [name, action] of Object.entries(ACTIONS)) {
    server.registerTool(
      name,
      {
        description: `${action.description}. One step through Warden's rules: a read is sent and answered with the new screen; a write is held for a person of the tenant and answered as held.`,
        inputSchema: z.object({ run_id: runId, frame_id: frameId, ...action.fields }),
      },
      ({
        run_id,
        frame_id,
        ...fields
      }: { run_id: string; frame_id: string } & Record<string, unknown>) =>
        answer(() => session.act(caller, run_id, frame_id, { action: name, ...fields })),
    );
  }

  server.registerTool(
    'approval_status',
    {
      description:
        "Where a held write stands. Still pending: who may decide and the approval link. Approved by a person: the write is sent once onto the screen they saw and the new screen answered. Rejected: the run's end and why. It never approves anything.",
      inputSchema: z.object({ run_id: runId }),
    },
    ({ run_id }) => answer(() => session.approval(caller, run_id)),
  );
}
