import { MCP_FAMILY_NAME } from '../../config/planner-id';
import type { RemoteFamily } from './remote-families.repository';
import type { RemoteWorkPort } from './remote-planner';

/**
 * The `mcp` planner (docs/mcp.md): the agent calling Warden's MCP endpoint decides each step by a
 * tool call. It is a remote planner Warden registers itself, always: each step publishes its input
 * as waiting work, and the MCP endpoint, acting for the run's starter, claims it and answers the
 * tool call's action. Judging, holding and sending are the engine's, as for any planner.
 */
export { MCP_FAMILY_NAME };
export const MCP_PLANNER_ID = 'mcp-1-normal';

/** How long a step waits for the calling agent's next tool call before the run fails `planner_timeout`. */
export const MCP_DEADLINE_SECONDS = 600;

export const MCP_FAMILY: RemoteFamily = Object.freeze({
  family: MCP_FAMILY_NAME,
  version: '1',
  effort: 'normal',
  deadlineSeconds: MCP_DEADLINE_SECONDS,
  pixels: true,
  tags: [],
  programs: [],
  note: 'the agent calling /mcp decides each step by a tool call',
  setBy: 'warden',
  setAt: new Date(0),
});

/**
 * The work port of the `mcp` planner: as a remote family's, except that the calling agent has no
 * heartbeat (it calls a tool when its model has decided, which may take minutes), so only the
 * deadline ends a step nobody answers.
 */
export function mcpWorkPort(port: RemoteWorkPort): RemoteWorkPort {
  return {
    get heartbeatSeconds() {
      return port.heartbeatSeconds;
    },
    ofStep: (runId, step) => port.ofStep(runId, step),
    publish: (work, maxOpen) => port.publish(work, maxOpen),
    close: (id, status) => port.close(id, status),
    lastSeen: () => Promise.resolve(new Date()),
    lookAgain: (work, at) => port.lookAgain(work, at),
    png: (tenant, sha256) => port.png(tenant, sha256),
  };
}
