/**
 * Routes whose form-encoded body reaches their handler as the bytes that arrived (a Buffer), not
 * parsed: a signature over the raw body is checked there (Slack's request signature,
 * docs/notifications.md), and any re-encoding would change what was signed. Nothing else takes a
 * form body.
 */
export const SLACK_ACTIONS_PATH = '/api/chat/slack/actions';

export const RAW_FORM_ROUTES: readonly string[] = [SLACK_ACTIONS_PATH];

/**
 * The MCP endpoint (docs/mcp.md): its body reaches the handler as the text that arrived, so the MCP
 * SDK answers a body that is no JSON, or no JSON-RPC, with a JSON-RPC error of its own.
 */
export const MCP_PATH = '/mcp';
