/**
 * The MCP clients the agent-tool suites check the binding with, each the SDK's own: the v2 client pinned to protocol
 * revision 2026-07-28, the v2 client on the 2025-11-25 handshake, and the v1 `@modelcontextprotocol/sdk` client
 * (which checks every result against the tool's output schema). Over Streamable HTTP or over stdio.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export type McpClientKind = 'v2 client, 2026-07-28' | 'v2 client, 2025-11-25' | 'v1 client';

export const MCP_CLIENT_KINDS: readonly McpClientKind[] = [
  'v2 client, 2026-07-28',
  'v2 client, 2025-11-25',
  'v1 client',
];

export interface ToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
}

export interface ToolCallResult {
  readonly isError?: boolean;
  readonly structuredContent?: Record<string, unknown>;
  readonly content: readonly { type: string; text?: string }[];
}

/** What the suites ask of any client. */
export interface McpTestClient {
  readonly kind: McpClientKind;
  /** The protocol revision the connection runs on. */
  readonly protocolVersion: string | undefined;
  listTools(): Promise<ToolInfo[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
  close(): Promise<void>;
}

export type McpTarget =
  | { readonly url: string; readonly headers?: Record<string, string> }
  | { readonly command: string; readonly args: string[]; readonly env?: Record<string, string>; readonly cwd?: string };

const INFO = { name: 'svc-test-client', version: '1.0.0' };

function env(extra: Record<string, string> | undefined): Record<string, string> {
  return {
    ...(Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >),
    ...extra,
  };
}

export async function connectMcp(kind: McpClientKind, target: McpTarget): Promise<McpTestClient> {
  if (kind === 'v1 client') {
    const client = new V1Client(INFO);
    const transport =
      'url' in target
        ? new V1StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers } })
        : new V1StdioClientTransport({ ...target, env: env(target.env), stderr: 'pipe' });
    await client.connect(transport);
    return {
      kind,
      protocolVersion: (transport as { protocolVersion?: string }).protocolVersion,
      listTools: async () => (await client.listTools()).tools as ToolInfo[],
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolCallResult,
      close: () => client.close(),
    };
  }
  const modern = kind === 'v2 client, 2026-07-28';
  const client = new Client(INFO, {
    versionNegotiation: { mode: modern ? { pin: '2026-07-28' } : 'legacy' },
  });
  const transport =
    'url' in target
      ? new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers } })
      : new StdioClientTransport({ ...target, env: env(target.env), stderr: 'pipe' });
  await client.connect(transport);
  return {
    kind,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    listTools: async () => (await client.listTools()).tools as ToolInfo[],
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolCallResult,
    close: () => client.close(),
  };
}
