/**
 * The MCP tools over Streamable HTTP, stateless: each request is served by a fresh server instance bound to the
 * caller's context, for protocol revisions 2026-07-28 (per-request envelope) and 2025-11-25 (the stateless fallback).
 * Host and Origin are checked against allowlists first, so a page on another site cannot reach a local server through
 * DNS rebinding. GET and DELETE (session operations, which a stateless server has none of) answer 405.
 */
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { SvcContext } from '@svc/core';
import { createMcpServer, type SvcMcpServerInfo } from './create-mcp-server';
import { SvcToolset, type SvcToolsetOptions } from './svc-toolset';

export interface SvcMcpHttpOptions extends SvcToolsetOptions, SvcMcpServerInfo {
  /**
   * Host names (no port) the `Host` header may name; anything else is refused with 403 before any work.
   * @default ['localhost', '127.0.0.1', '[::1]']
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Host names (no port) a browser's `Origin` may name; a request without `Origin` (not from a browser) passes.
   * @default ['localhost', '127.0.0.1', '[::1]']
   */
  readonly allowedOrigins?: readonly string[];
  /** Reports failures outside a tool call (a broken request, a serving fault); never alters the response. */
  readonly onError?: (error: Error) => void;
}

/** Per-call inputs: the caller's context and, behind a body parser, the parsed JSON body. */
export interface SvcMcpCall {
  readonly context: SvcContext;
  readonly parsedBody?: unknown;
}

export class SvcMcpHttpHandler {
  readonly toolset: SvcToolset;
  private readonly handler: McpHttpHandler;
  private readonly allowedHosts: string[];
  private readonly allowedOrigins: string[];
  /**
   * The context of each request being served, read by the per-request server factory, which the SDK hands the request
   * itself (`requestInfo`) on both revisions once the body is parsed here. Only a POST whose body is not JSON reaches
   * the factory as a copy: it gets no context, and the SDK refuses it before any tool runs. Kept by request object
   * rather than in an AsyncLocalStorage, which on Node 20 turns on promise hooks for the whole process.
   */
  private readonly contexts = new WeakMap<Request, SvcContext>();

  constructor(options: SvcMcpHttpOptions) {
    this.toolset = new SvcToolset(options);
    this.allowedHosts = [...(options.allowedHosts ?? localhostAllowedHostnames())];
    this.allowedOrigins = [...(options.allowedOrigins ?? localhostAllowedOrigins())];
    const info = { name: options.name, version: options.version };
    this.handler = createMcpHandler(
      ({ requestInfo }) => createMcpServer(this.toolset, info, this.contextOf(requestInfo)),
      { legacy: 'stateless', ...(options.onError ? { onerror: options.onError } : {}) },
    );
  }

  /** Serves one HTTP request with the caller's context. */
  async handle(request: Request, call: SvcMcpCall): Promise<Response> {
    const refused =
      hostHeaderValidationResponse(request, this.allowedHosts) ??
      originValidationResponse(request, this.allowedOrigins);
    if (refused) return refused;
    const body = call.parsedBody ?? (await unparsedJson(request));
    // A JSON-RPC batch would run up to the SDK's 100 tool calls for one request: the revisions served have none.
    if (Array.isArray(body)) return batchRefused();
    const options = body === undefined ? undefined : { parsedBody: body };
    this.contexts.set(request, call.context);
    return this.handler.fetch(request, options);
  }

  /**
   * The caller's context of a request the factory is handed. None is found for a copy the SDK made of a body it read
   * itself, which it refuses before any tool runs. Such a request is never served as a caller without identity (what
   * policy takes for a call in code): its server lists no tools and refuses every call.
   */
  private contextOf(request: Request | undefined): SvcContext | undefined {
    return request ? this.contexts.get(request) : undefined;
  }

  /** Aborts exchanges in flight. */
  close(): Promise<void> {
    return this.handler.close();
  }
}

/** A POST body no parser read, parsed as JSON when it is; undefined otherwise (the SDK then answers it as it does). */
async function unparsedJson(request: Request): Promise<unknown> {
  if (request.method !== 'POST' || !/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
    return undefined;
  }
  try {
    return (await request.clone().json()) as unknown;
  } catch {
    return undefined;
  }
}

function batchRefused(): Response {
  const error = {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message: 'Invalid Request: batches are not supported. Send one JSON-RPC message per request.',
    },
  };
  return new Response(JSON.stringify(error), { status: 400, headers: { 'content-type': 'application/json' } });
}
