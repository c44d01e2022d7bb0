/** Global exception filter: every error, Nest's own included (unknown route, bad JSON, too large), as problem+json. */
import { ArgumentsHost, Catch, HttpException, type ExceptionFilter } from '@nestjs/common';
import { SvcException, type SvcErrorCode } from '@svc/core';
import type { Request, Response } from 'express';
import { writeProblem } from './problem-response';

const BY_STATUS: Readonly<Record<number, SvcErrorCode>> = {
  404: 'SVC_ROUTE_NOT_FOUND',
  413: 'SVC_PAYLOAD_TOO_LARGE',
  415: 'SVC_UNSUPPORTED_MEDIA_TYPE',
};

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const http = host.switchToHttp();
    writeProblem(http.getRequest<Request>(), http.getResponse<Response>(), toSvc(error));
  }
}

/** Maps Nest and body-parser errors to catalog codes; anything else stays as it is (SVC_INTERNAL at worst). */
export function toSvc(error: unknown): unknown {
  if (error instanceof SvcException) return error;
  const status = error instanceof HttpException ? error.getStatus() : (error as { status?: unknown })?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return error;
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed' || error instanceof SyntaxError || isParseFailure(error)) {
    return new SvcException('SVC_MALFORMED_REQUEST', { detail: 'The body is not valid JSON. Send a JSON object.' });
  }
  const code = BY_STATUS[status];
  if (code) return new SvcException(code, { detail: messageOf(error) ?? undefined });
  return new SvcException('SVC_HTTP_ERROR', {
    detail: messageOf(error) ?? 'The request could not be served as sent.',
    status,
  });
}

/** Nest turns body-parser's JSON failures into a bare 400 whose message is the parser's. */
function isParseFailure(error: unknown): boolean {
  if (!(error instanceof HttpException) || error.getStatus() !== 400) return false;
  return /JSON|Unexpected (token|end)|position \d+/.test(messageOf(error) ?? '');
}

function messageOf(error: unknown): string | undefined {
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  }
  return undefined;
}
