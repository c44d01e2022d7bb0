/**
 * The few things Svc's routes and its filter do to a request and a response, the same on Express and on Fastify:
 * Nest hands a route Express's `req`/`res` on one platform and Fastify's request/reply on the other.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { parseQueryString, type QueryPairs } from '@svc/core';

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

/** Express's own default JSON body limit (100 kB): a JSON Patch body is no larger than any other, on either platform. */
export const JSON_PATCH_LIMIT_BYTES = 100 * 1024;

/** The URL as the client sent it, query string included. */
export function requestUrl(request: SvcHttpRequest): string {
  return request.originalUrl ?? request.url;
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

/** The Node response underneath (for a stream that Svc writes itself). */
export function nodeResponse(response: SvcHttpResponse): ServerResponse {
  return isFastify(response) ? response.raw : (response as ServerResponse);
}

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
 * status (200, or 201 for POST), which must not replace a 204, a 304 or a route's `successStatus`.
 */
export function keepStatus(response: SvcHttpResponse, status: number): void {
  if (isFastify(response)) {
    response.code(status);
    for (const name of ['code', 'status'])
      Object.defineProperty(response, name, { value: () => response, configurable: true, writable: true });
    return;
  }
  (response as ExpressResponseLike).status(status);
  Object.defineProperty(response, 'status', { value: () => response, configurable: true, writable: true });
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
