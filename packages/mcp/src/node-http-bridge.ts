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
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) web.append(name, one);
  }
  return web;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
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
  const raw = bodied && call.parsedBody === undefined && !req.readableEnded ? await readBody(req) : undefined;
  let request: Request;
  try {
    request = new Request(new URL(call.url ?? req.url ?? '/', 'http://localhost'), {
      method,
      headers: webHeaders(req.headers),
      ...(raw && raw.length > 0 ? { body: raw } : {}),
    });
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Malformed HTTP request.' }, id: null }));
    return;
  }
  const response = await handler.handle(request, { context: call.context, parsedBody: call.parsedBody });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  }
  res.end();
}
