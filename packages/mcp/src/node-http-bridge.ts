/**
 * Serves the MCP handler from Node's `(req, res)` pair (Express, Fastify's raw request, `node:http`): builds the
 * web-standard request, runs it, and streams the response back.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { SvcContext } from '@svc/core';
import type { SvcMcpHttpHandler } from './svc-mcp-http-handler';

export interface NodeMcpCall {
  /** What policy and `apply` see; over HTTP `{ request }` with the framework's request object. */
  readonly context: SvcContext;
  /** The JSON body a body parser already read, if any. */
  readonly parsedBody?: unknown;
  /** The request path and query (Express's `originalUrl`). @default req.url */
  readonly url?: string;
  /**
   * The most bytes of a body read here, when no body parser read it (a `text/plain` body on Express, an app without
   * a body parser): past it the request is answered 413 before the rest is read. @default MCP_BODY_LIMIT_BYTES
   */
  readonly maxBodyBytes?: number;
}

/** 100 kB, the limit of every JSON body Svc reads itself (and Express's JSON parser's default). */
export const MCP_BODY_LIMIT_BYTES = 100 * 1024;

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) web.append(name, one);
  }
  return web;
}

/** The body, or undefined as soon as it is over `limit` bytes (declared or read): the rest is left unread. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > limit) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

function answerError(res: ServerResponse, status: number, code: number, message: string, close = false): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Answers one request through `handler`. */
export async function serveNodeRequest(
  handler: SvcMcpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  call: NodeMcpCall,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const bodied = method !== 'GET' && method !== 'HEAD';
  const limit = call.maxBodyBytes ?? MCP_BODY_LIMIT_BYTES;
  const raw =
    bodied && call.parsedBody === undefined && !req.readableEnded ? await readBody(req, limit) : Buffer.alloc(0);
  if (raw === undefined) {
    answerError(
      res,
      413,
      -32600,
      `The request body is over ${Math.round(limit / 1024)} kB. Send a smaller request.`,
      true,
    );
    return;
  }
  let request: Request;
  try {
    request = new Request(new URL(call.url ?? req.url ?? '/', 'http://localhost'), {
      method,
      headers: webHeaders(req.headers),
      ...(raw.length > 0 ? { body: raw } : {}),
    });
  } catch {
    answerError(res, 400, -32600, 'Malformed HTTP request.');
    return;
  }
  const response = await handler.handle(request, { context: call.context, parsedBody: call.parsedBody });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (!response.body || isEventStream(headers)) {
    res.writeHead(response.status, headers);
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    }
    res.end();
    return;
  }
  // A JSON answer is whole once the handler resolves: written in one piece with its length, rather than chunk by
  // chunk through the web stream (a call's result is one message).
  const bytes = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...headers, 'content-length': String(bytes.length) });
  res.end(bytes);
}

function isEventStream(headers: Record<string, string>): boolean {
  return /^text\/event-stream\b/i.test(headers['content-type'] ?? '');
}
