/**
 * The exception filter Svc registers: errors on Svc's routes (a guard's refusal, bad JSON, a body too large, an unknown
 * path under an Svc controller) answer as problem+json, and those at the GraphQL and MCP endpoints in their protocol's
 * own shape; every other route of the app keeps Nest's own format, unless the app opts in with `problemDetails: 'all'`.
 */
import { ArgumentsHost, Catch, HttpException, Inject, type ExecutionContext } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { SvcException, type SvcErrorCode } from '@svc/core';
import type { SvcHttpRequest as Request, SvcHttpResponse as Response } from './http-exchange';
import { writeProblem } from './problem-response';
import { writeSurfaceError } from './surface-errors';
import { declarationOf } from './svc-declarations';
import type { SvcModuleOptions } from './svc-module-options';
import { SvcRegistry } from './svc-registry';
import { SVC_OPTIONS } from './svc.constants';

const BY_STATUS: Readonly<Record<number, SvcErrorCode>> = {
  // A guard's refusal on an Svc route answers like a refusing policy, with the guard's message as the detail.
  403: 'SVC_FORBIDDEN',
  404: 'SVC_ROUTE_NOT_FOUND',
  413: 'SVC_PAYLOAD_TOO_LARGE',
  415: 'SVC_UNSUPPORTED_MEDIA_TYPE',
};

@Catch()
export class ProblemDetailsFilter extends BaseExceptionFilter {
  constructor(
    @Inject(SVC_OPTIONS) private readonly options: SvcModuleOptions,
    @Inject(SvcRegistry) private readonly registry: SvcRegistry,
  ) {
    super();
  }

  override catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const surface = this.registry.surfaceAt(request.path ?? request.url);
    if (surface) {
      writeSurfaceError(surface, request, http.getResponse<Response>(), toSvc(error));
      return;
    }
    if (this.options.problemDetails === 'all' || this.servedBySvc(host, request)) {
      writeProblem(request, http.getResponse<Response>(), toSvc(error));
      return;
    }
    super.catch(error, host);
  }

  /** The request reached an Svc controller, or (failing before routing) its path lies under one. */
  private servedBySvc(host: ArgumentsHost, request: Request): boolean {
    const controller = (host as Partial<ExecutionContext>).getClass?.();
    if (controller) return declarationOf(controller) !== undefined;
    return this.registry.servesPath(request.path ?? request.url);
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

/**
 * Nest turns body-parser's JSON failures, and Fastify's (an empty JSON body included), into a bare 400 whose message
 * is the parser's.
 */
function isParseFailure(error: unknown): boolean {
  if (!(error instanceof HttpException) || error.getStatus() !== 400) return false;
  return /JSON|Unexpected (token|end)|position \d+|^Body cannot be empty/.test(messageOf(error) ?? '');
}

function messageOf(error: unknown): string | undefined {
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  }
  return undefined;
}
