/**
 * The official MCP SDK's client over real HTTP against the API's `/mcp` (docs/mcp.md), speaking
 * the 2026-07-28 revision, with a Warden bearer token.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface ToolAnswer {
  isError: boolean;
  /** The structured content (every Warden tool answers one). */
  fields: Record<string, any>;
  /** The image of a screen, base64 PNG, where the answer has one. */
  image: string | null;
}

export interface McpSession {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

export async function connectMcp(baseUrl: string, token: string): Promise<McpSession> {
  const client = new Client(
    { name: 'warden-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return {
    client,
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args }, { timeout: 60_000 });
      const content = (result.content ?? []) as Array<{ type: string; data?: string }>;
      return {
        isError: result.isError === true,
        fields: (result.structuredContent ?? {}) as Record<string, any>,
        image: content.find((c) => c.type === 'image')?.data ?? null,
      };
    },
    close: () => client.close(),
  };
}
