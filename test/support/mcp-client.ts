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

/** A session of the SDK's client: the 2026-07-28 revision, or the 2025 handshake (`legacy`). */
export async function connectMcp(
  baseUrl: string,
  token: string,
  era: 'modern' | 'legacy' = 'modern',
): Promise<McpSession> {
  const client = new Client(
    { name: 'warden-e2e', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
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

/** An HTTP request the SDK's client sent: its headers and its body. */
export interface SentMessage {
  headers: Record<string, string>;
  body: string;
}

/**
 * The requests the SDK's client sends for a short session (connect, the tool list, a few tool
 * calls), recorded as they went out: examples for the fuzzer to vary.
 */
export async function recordedMessages(
  baseUrl: string,
  token: string,
  calls: Array<{ name: string; arguments: Record<string, unknown> }>,
): Promise<SentMessage[]> {
  const sent: SentMessage[] = [];
  const recording = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        if (name !== 'authorization') headers[name] = value;
      });
      sent.push({ headers, body: init.body });
    }
    return fetch(url, init);
  };
  const client = new Client(
    { name: 'warden-fuzz', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: recording,
    }),
  );
  await client.listTools();
  for (const call of calls) await client.callTool(call);
  await client.close();
  return sent;
}
