/**
 * The few things Svc's routes and its filter do to a request and a response, the same on Express and on Fastify:
 * Nest hands a route Express's `req`/`res` on one platform and Fastify's request/reply on the other.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { SvcException } from '@svc/core';
import { parseQueryString, type QueryPairs } from '@svc/core/spi';

/** What Svc reads of a request, on either platform. */
export interface SvcHttpRequest {
  readonly method: string;
  readonly url: string;
  /** Express keeps the URL before routing here; Fastify 5 too. */
  readonly originalUrl?: string;
  readonly headers: IncomingHttpHeaders;
  readonly params?: Record<string, string | undefined>;
  readonly query?: Record<string, unknown>;
  body?: unknown;
  /** Express's `path`; Fastify has none. */
  readonly path?: string;
  /** Fastify: the Node request underneath. */
  readonly raw?: IncomingMessage;
}

/** Express's response or Fastify's reply, told apart by `raw`, which only a Fastify reply has. */
export type SvcHttpResponse = object;

interface FastifyReplyLike {
  readonly raw: ServerResponse;
  readonly sent: boolean;
  code(status: number): FastifyReplyLike;
  status(status: number): FastifyReplyLike;
  header(name: string, value: string): FastifyReplyLike;
  send(body?: unknown): FastifyReplyLike;
  hijack(): FastifyReplyLike;
}

interface ExpressResponseLike extends ServerResponse {
  status(status: number): ExpressResponseLike;
}

function isFastify(response: SvcHttpResponse): response is FastifyReplyLike {
  return 'raw' in response && typeof (response as Partial<FastifyReplyLike>).code === 'function';
}

/** Express's own default JSON body limit (100 kB): a body Svc reads itself (a JSON Patch, a GraphQL request no parser read) is no larger than any other JSON body, on either platform. */
export const JSON_BODY_LIMIT_BYTES = 100 * 1024;

/** The URL as the client sent it, query string included. */
export function requestUrl(request: SvcHttpRequest): string {
  return request.originalUrl ?? request.url;
}

/**
 * The request's URL as an answer or a log may show it: an `access_token` in the query (how an event stream's client
 * hands the app's guard a bearer token) is replaced by `***`, so no token is echoed in a problem or written to a log.
 */
export function shownUrl(request: SvcHttpRequest): string {
  const url = requestUrl(request);
  return url.includes('access_token=') ? url.replace(/([?&]access_token=)[^&#]*/g, '$1***') : url;
}

/** The query string's pairs, in order, as the wire grammar reads them. */
export function queryPairsOf(request: SvcHttpRequest): QueryPairs {
  const url = requestUrl(request);
  const start = url.indexOf('?');
  return parseQueryString(start === -1 ? '' : url.slice(start + 1));
}

/** The Node stream of the request's body. */
export function requestStream(request: SvcHttpRequest): IncomingMessage {
  return request.raw ?? (request as unknown as IncomingMessage);
}

/**
 * The body no parser read, up to Express's default JSON limit (100 kB): a longer one is refused with 413 and
 * `tooLarge` as its detail. The rest of a longer body is read and dropped first, as Express's own parsers do, so the
 * keep-alive connection it came on stays usable for the next request; past `DRAINED_BYTES_LIMIT` more, the
 * connection is closed instead.
 */
export async function readLimitedBody(request: SvcHttpRequest, tooLarge: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = requestStream(request);
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    size += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (size > JSON_BODY_LIMIT_BYTES + DRAINED_BYTES_LIMIT) {
      stream.socket?.destroy();
      break;
    }
    if (size <= JSON_BODY_LIMIT_BYTES) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  }
  if (size > JSON_BODY_LIMIT_BYTES) throw new SvcException('SVC_PAYLOAD_TOO_LARGE', { detail: tooLarge });
  return Buffer.concat(chunks);
}

/** How much of a body over the limit is read and dropped to keep its connection; a longer one closes it (10 MB). */
const DRAINED_BYTES_LIMIT = 10 * 1024 * 1024;

/** Svc writes this response itself from here on (a stream): Fastify is told to leave it alone. */
export function takeOver(response: SvcHttpResponse): ServerResponse {
  if (!isFastify(response)) return response as ServerResponse;
  response.hijack();
  return response.raw;
}

export function setHeader(response: SvcHttpResponse, name: string, value: string): void {
  if (isFastify(response)) response.header(name, value);
  else (response as ServerResponse).setHeader(name, value);
}

export function headersSent(response: SvcHttpResponse): boolean {
  return isFastify(response) ? response.sent || response.raw.headersSent : (response as ServerResponse).headersSent;
}

/**
 * Sets the status the engine decided and keeps it: Nest replies to a passthrough route with the method's default
 * status (200, or 201 for POST), which must not replace a 204, a 304 or a route's `successStatus`. The status is kept
 * beside the response (not on it, so every response object keeps one shape) for the reply `holdSvcReplies` wraps.
 */
export function keepStatus(response: SvcHttpResponse, status: number): void {
  if (isFastify(response)) response.code(status);
  else (response as ExpressResponseLike).status(status);
  keptStatuses.set(response, status);
}

const keptStatuses = new WeakMap<object, number>();

/** What Nest's router calls to send a route's result, once the app's interceptors have had it. */
interface ReplyingAdapter {
  reply(response: unknown, body: unknown, statusCode?: number): unknown;
}

const HELD = Symbol('svc.repliesHeld');

/**
 * Wraps the HTTP adapter's `reply` once, at bootstrap. A response of an Svc route is sent with the status Svc kept;
 * on Express, when the result (as the interceptors left it) is a plain JSON object or array and the app keeps
 * Express's default JSON settings, Svc writes it itself: its Content-Type is set already, and Express's `res.json`
 * would parse and re-format that header on every response. An app that sets `json spaces`, `json replacer` or
 * `json escape` gets `res.json`, which applies them. Anything else, and every other route, replies as Nest would.
 */
export function holdSvcReplies(adapter: ReplyingAdapter | undefined): void {
  if (!adapter || typeof adapter.reply !== 'function' || (adapter as unknown as Record<symbol, unknown>)[HELD]) return;
  const reply = adapter.reply.bind(adapter);
  adapter.reply = (response, body, statusCode) => {
    const kept = keptStatuses.get(response as object);
    if (kept === undefined) return reply(response, body, statusCode);
    if (isPlainJson(body) && !isFastify(response as object) && defaultJsonSettings(response as ExpressAppHolder)) {
      const raw = response as ServerResponse;
      const text = JSON.stringify(body);
      raw.statusCode = kept;
      raw.setHeader('Content-Length', Buffer.byteLength(text));
      raw.end(text);
      return undefined;
    }
    return reply(response, body, kept);
  };
  Object.defineProperty(adapter, HELD, { value: true });
}

/** What an Express response knows of its app's settings. */
interface ExpressAppHolder {
  app?: { settings?: Record<string, unknown> };
}

/** Whether `res.json` would write exactly `JSON.stringify(body)`: no `json spaces`, `json replacer` or `json escape`. */
function defaultJsonSettings(response: ExpressAppHolder): boolean {
  const settings = response.app?.settings;
  return (
    settings === undefined ||
    (settings['json spaces'] === undefined && settings['json replacer'] === undefined && !settings['json escape'])
  );
}

function isPlainJson(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const prototype = Object.getPrototypeOf(body) as unknown;
  return Array.isArray(body) || prototype === Object.prototype || prototype === null;
}

/**
 * Writes the whole answer to an Express POST at once and says so; false (nothing written) on Fastify or another
 * method. Express's `res.send` would hash the body for an ETag and check its freshness, which only a GET or HEAD can
 * use.
 */
export function writeExpressPostAnswer(
  request: Pick<SvcHttpRequest, 'method'>,
  response: SvcHttpResponse,
  answer: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string },
): boolean {
  if (isFastify(response) || request.method !== 'POST') return false;
  const raw = response as ServerResponse;
  raw.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) raw.setHeader(name, value);
  raw.setHeader('Content-Length', Buffer.byteLength(answer.body));
  raw.end(answer.body);
  return true;
}

/** Answers at once, outside Nest's reply (OPTIONS, problem responses): a status, headers and an optional body. */
export function sendNow(response: SvcHttpResponse, status: number, body?: string): void {
  if (isFastify(response)) {
    response.code(status).send(body);
    return;
  }
  const express = response as ServerResponse;
  express.statusCode = status;
  express.end(body);
}
