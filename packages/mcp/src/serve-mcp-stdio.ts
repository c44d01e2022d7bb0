/**
 * The MCP tools over stdio, for an agent host that launches the server as a child process: one connection, one
 * server instance, every call with the context the host program passes in (stdio carries no identity of its own).
 */
import type { Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { SvcContext } from '@svc/core';
import { createMcpServer, type SvcMcpServerInfo } from './create-mcp-server';
import { SvcToolset, type SvcToolsetOptions } from './svc-toolset';

export interface ServeMcpStdioOptions extends SvcToolsetOptions, SvcMcpServerInfo {
  /** What policy, `filter.apply` and `set` see on every call (the user the process acts for). @default {} */
  readonly context?: SvcContext;
  /** Another transport than this process's stdin and stdout (a socket, a test pipe). */
  readonly transport?: Transport;
  /** Reports failures outside a tool call; never writes to stdout, which carries the protocol. */
  readonly onError?: (error: Error) => void;
}

/** A running stdio server. */
export interface McpStdioServer {
  /** Closes the connection and its server. */
  close(): Promise<void>;
}

/**
 * Serves the tools over stdio (protocol revisions 2026-07-28 and 2025-11-25). Nothing else may write to stdout
 * while it runs: log to stderr.
 */
export function serveMcpStdio(options: ServeMcpStdioOptions): McpStdioServer {
  const toolset = new SvcToolset(options);
  const info = { name: options.name, version: options.version };
  const context = options.context ?? {};
  return serveStdio(() => createMcpServer(toolset, info, context), {
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.onError ? { onerror: options.onError } : {}),
  });
}
