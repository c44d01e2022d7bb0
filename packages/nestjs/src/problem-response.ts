/** Writes any error as an RFC 9457 problem-details response; shared by generated routes and the global filter. */
import { PROBLEM_CONTENT_TYPE, toProblemDetails, type ProblemDetails, type SvcException } from '@svc/core';
import { EXPOSE_INTERNALS, toSvcException } from '@svc/core/spi';
import { Logger } from '@nestjs/common';
import {
  headersSent,
  shownUrl,
  sendNow,
  setHeader,
  type SvcHttpRequest as Request,
  type SvcHttpResponse as Response,
} from './http-exchange';

let counter = 0;
const ids = new WeakMap<object, string>();
const logger = new Logger('Svc');

/** The request id, the same for the whole request: the caller's `X-Request-Id`, or one made here. */
export function requestIdOf(request: Request): string {
  const known = ids.get(request);
  if (known) return known;
  const given = request.headers['x-request-id'];
  let id: string;
  if (typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given)) id = given;
  else {
    counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
    id = `${Date.now().toString(36)}-${counter.toString(36)}`;
  }
  ids.set(request, id);
  return id;
}

/** How an error's answer is written: its media type and its body, from the problem object. */
export interface ErrorShape {
  readonly contentType: string;
  readonly body: (problem: ProblemDetails) => unknown;
}

/** RFC 9457 problem details, the answer of every Svc route. */
const PROBLEM_SHAPE: ErrorShape = { contentType: PROBLEM_CONTENT_TYPE, body: (problem) => problem };

/**
 * Writes any error: its problem object (instance, request id, and driver detail with `errors.exposeInternals`) in
 * `shape`, at the problem's status, with `X-Request-Id` and the exception's own headers; a 5xx is logged.
 */
export function writeError(request: Request, response: Response, error: unknown, shape: ErrorShape): void {
  const exception = toSvcException(error);
  const exposeInternals = (exception as unknown as Record<symbol, unknown>)[EXPOSE_INTERNALS] === true;
  const problem = toProblemDetails(exception, {
    instance: shownUrl(request),
    requestId: requestIdOf(request),
    exposeInternals,
  });
  logServerFault(request, problem, exception);
  if (headersSent(response)) return;
  setHeader(response, 'X-Request-Id', String(problem.requestId));
  for (const [name, value] of Object.entries(exception.headers ?? {})) setHeader(response, name, value);
  setHeader(response, 'Content-Type', shape.contentType);
  sendNow(response, problem.status, JSON.stringify(shape.body(problem)));
}

export function writeProblem(request: Request, response: Response, error: unknown): void {
  writeError(request, response, error, PROBLEM_SHAPE);
}

/** A 5xx is Svc's or the database's fault, never the client's: logged with its cause, findable by the request id. */
function logServerFault(request: Request, body: ProblemDetails, exception: SvcException): void {
  if (body.status < 500) return;
  const cause = exception.cause ?? exception;
  logger.error(
    `${body.code} ${body.status} on ${request.method} ${shownUrl(request)} (request ${body.requestId}): ${body.detail}`,
    cause instanceof Error ? cause.stack : String(cause),
  );
}
