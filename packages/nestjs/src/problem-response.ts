/** Writes any error as an RFC 9457 problem-details response; shared by generated routes and the global filter. */
import {
  PROBLEM_CONTENT_TYPE,
  toProblemDetails,
  type ErrorAnswer,
  type ErrorFormat,
  type ProblemDetails,
  type SvcException,
} from '@svc/core';
import { ERROR_FORMAT, EXPOSE_INTERNALS, toSvcException } from '@svc/core/spi';
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
 * `shape`, at the problem's status, with `X-Request-Id` and the exception's own headers; a 5xx is logged. `format`
 * (`errors.format`) may answer in the app's own shape instead; undefined from it keeps `shape`.
 */
export function writeError(
  request: Request,
  response: Response,
  error: unknown,
  shape: ErrorShape,
  format?: ErrorFormat,
): void {
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
  const answer = format ? formatted(format, problem, request) : undefined;
  if (answer) {
    setHeader(response, 'Content-Type', answer.contentType ?? 'application/json; charset=utf-8');
    sendNow(response, answer.status, JSON.stringify(answer.body));
    return;
  }
  setHeader(response, 'Content-Type', shape.contentType);
  sendNow(response, problem.status, JSON.stringify(shape.body(problem)));
}

/**
 * Writes an error of a REST route as problem+json, or in the app's shape where `errors.format` answers: the format in
 * force for the operation that raised it (set on the exception by the engine), else `format`.
 */
export function writeProblem(request: Request, response: Response, error: unknown, format?: ErrorFormat): void {
  writeError(request, response, error, PROBLEM_SHAPE, formatOf(error) ?? format);
}

/** The `errors.format` in force where `error` was raised, when an operation raised it. */
export function formatOf(error: unknown): ErrorFormat | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  return (error as Record<symbol, ErrorFormat | undefined>)[ERROR_FORMAT];
}

/**
 * The app's answer to a problem, or undefined to keep the problem: a format that throws or answers without a valid
 * status is a bug of the app's, logged, and the problem is served.
 */
function formatted(format: ErrorFormat, problem: ProblemDetails, request: Request): ErrorAnswer | undefined {
  try {
    const answer = format(problem);
    if (answer === undefined) return undefined;
    const status = (answer as Partial<ErrorAnswer> | null)?.status;
    if (typeof status === 'number' && Number.isInteger(status) && status >= 200 && status <= 599) return answer;
    logger.error(
      `errors.format answered ${problem.code} on ${request.method} ${shownUrl(request)} without a status from 200 to 599; the problem was served. Return { status, body } or undefined.`,
    );
  } catch (error) {
    logger.error(
      `errors.format threw on ${problem.code} on ${request.method} ${shownUrl(request)}; the problem was served.`,
      error instanceof Error ? error.stack : String(error),
    );
  }
  return undefined;
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
