/**
 * One MCP server instance over a toolset, bound to one caller's context: `tools/list` serves the definitions of the
 * tools that caller may call, `tools/call` runs a tool with that context. The serving entries make one per HTTP request or stdio connection.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type JSONRPCRequest,
  type RequestId,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
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

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * A server whose `tools/call` handler can read a call's arguments as the client sent them. The SDK's parse of the
 * request copies `arguments` into a new object and leaves out an own `__proto__` key on the way (so that it cannot
 * set the copy's prototype); the tools must see that key to refuse it as the unknown argument it is, rather than run
 * as if it had not been sent. The values below the top level are the client's own objects either way.
 */
class SvcMcpServer extends Server {
  /** The arguments of each `tools/call` being served, by request id (one server serves one connection). */
  private readonly sent = new Map<RequestId, unknown>();

  /** The arguments of the request `id` as the client sent them, while its handler runs. */
  sentArgumentsOf(id: RequestId): Record<string, unknown> | undefined {
    const args = this.sent.get(id);
    return args !== null && typeof args === 'object' && !Array.isArray(args)
      ? (args as Record<string, unknown>)
      : undefined;
  }

  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return async (request, ctx) => {
      this.sent.set(request.id, request.params?.['arguments']);
      try {
        return await wrapped(request, ctx);
      } finally {
        this.sent.delete(request.id);
      }
    };
  }
}

/**
 * A low-level server whose tools run with `context` (policy, filter.apply and set see it). Without a context (a
 * request whose caller is unknown) it lists no tools and refuses every call.
 */
export function createMcpServer(toolset: SvcToolset, info: SvcMcpServerInfo, context: SvcContext | undefined): Server {
  const server = new SvcMcpServer(
    { name: info.name ?? 'svc', version: info.version ?? '0.1.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(
    'tools/list',
    async () => ({ tools: context ? await toolset.definitionsFor(context) : [] }) as never,
  );
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: parsed } = request.params;
    if (!context) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The caller of this request is unknown.');
    if (!toolset.has(name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const args = server.sentArgumentsOf(ctx.mcpReq.id) ?? parsed;
    const result = await toolset.call(name, args as Record<string, unknown> | undefined, context);
    return server.projectCallToolResult(result as CallToolResult, toolset.outputSchemaOf(name, context));
  });
  return server;
}
