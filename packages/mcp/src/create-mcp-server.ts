/**
 * One MCP server instance over a toolset, bound to one caller's context: `tools/list` serves the definitions of the
 * tools that caller may call, `tools/call` runs a tool with that context. The serving entries make one per HTTP request or stdio connection.
 */
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from '@modelcontextprotocol/server';
import type { SvcContext } from '@svc/core';
import type { SvcToolset } from './svc-toolset';

/** The name and version the server reports to clients. */
export interface SvcMcpServerInfo {
  /** @default 'svc' */
  readonly name?: string;
  /** @default '0.1.0' */
  readonly version?: string;
}

const INSTRUCTIONS =
  'Tools read and write the data of this service. Call svc_describe first: it lists the entities you may use, ' +
  'their fields and filter operators, and the tool of each operation.';

/**
 * A low-level server whose tools run with `context` (policy, filter.apply and set see it). Without a context (a
 * request whose caller is unknown) it lists no tools and refuses every call.
 */
export function createMcpServer(toolset: SvcToolset, info: SvcMcpServerInfo, context: SvcContext | undefined): Server {
  const server = new Server(
    { name: info.name ?? 'svc', version: info.version ?? '0.1.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(
    'tools/list',
    async () => ({ tools: context ? await toolset.definitionsFor(context) : [] }) as never,
  );
  server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args } = request.params;
    if (!context) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The caller of this request is unknown.');
    if (!toolset.has(name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const result = await toolset.call(name, args as Record<string, unknown> | undefined, context);
    return server.projectCallToolResult(result as CallToolResult, toolset.outputSchemaOf(name));
  });
  return server;
}
