/** Writes any error as an RFC 9457 problem-details response; shared by generated routes and the global filter. */
import { EXPOSE_INTERNALS, PROBLEM_CONTENT_TYPE, toProblemDetails, toSvcException } from '@svc/core';
import type { Request, Response } from 'express';

let counter = 0;

/** The request id: the caller's `X-Request-Id`, or one made here. */
export function requestIdOf(request: Request): string {
  const given = request.headers['x-request-id'];
  if (typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given)) return given;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${Date.now().toString(36)}-${counter.toString(36)}`;
}

export function writeProblem(request: Request, response: Response, error: unknown): void {
  const exception = toSvcException(error);
  const exposeInternals = (exception as unknown as Record<symbol, unknown>)[EXPOSE_INTERNALS] === true;
  const body = toProblemDetails(exception, {
    instance: request.originalUrl,
    requestId: requestIdOf(request),
    exposeInternals,
  });
  if (response.headersSent) return;
  response.status(body.status);
  for (const [name, value] of Object.entries(exception.headers ?? {})) response.setHeader(name, value);
  response.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  response.end(JSON.stringify(body));
}
