/**
 * The exception filter of Svc's routes. Errors on them (a guard's refusal, bad JSON, a body too large, an unknown
 * path under an Svc controller) answer as problem+json, and those at the GraphQL and MCP endpoints in their protocol's
 * own shape. Every other error goes to the app's own global filters, as if Svc's were not there, or to Nest's own
 * answer when the app has none; with `problemDetails: 'all'` Svc answers them too.
 *
 * It is on every Svc controller (so the app's global filters never take Svc's routes, and an `@UseFilters` of the app
 * on an Svc controller still comes first), and global, for what fails before a route is found: a body the parser
 * refused, an unknown path.
 */
import {
  ArgumentsHost,
  Catch,
  HttpException,
  Inject,
  type ExceptionFilter,
  type ExecutionContext,
  type OnModuleInit,
} from '@nestjs/common';
import { ApplicationConfig, BaseExceptionFilter } from '@nestjs/core';
import { BatchTooLargeException, SvcException, type SvcErrorCode } from '@svc/core';
import type { SvcHttpRequest as Request, SvcHttpResponse as Response } from './http-exchange';
import { EXCEPTION_FILTERS_METADATA, FILTER_CATCH_EXCEPTIONS } from './nest-metadata-keys';
import { formatOf, writeProblem } from './problem-response';
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

/** The apps whose global filters end with Svc's. */
const registeredLast = new WeakSet<ApplicationConfig>();

@Catch()
export class ProblemDetailsFilter extends BaseExceptionFilter implements OnModuleInit {
  constructor(
    @Inject(SVC_OPTIONS) private readonly options: SvcModuleOptions,
    @Inject(SvcRegistry) private readonly registry: SvcRegistry,
    @Inject(ApplicationConfig) private readonly appConfig: ApplicationConfig,
  ) {
    super();
  }

  /**
   * Registered once more as the app initialises, after the app's `useGlobalFilters` and every `APP_FILTER`: Nest
   * answers what fails before routing with the last global filter that takes it, so a body refused on an Svc path is
   * Svc's to answer. Everything else it hands on to the app's filters.
   */
  onModuleInit(): void {
    // Nest builds one instance per module that uses it (each Svc controller's module): one registration is enough.
    if (registeredLast.has(this.appConfig)) return;
    registeredLast.add(this.appConfig);
    this.appConfig.addGlobalFilter(this);
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
    // An SvcException is Svc's own wherever it is thrown (a handler, a service call in the app's code): never a 500.
    if (this.options.problemDetails === 'all' || error instanceof SvcException || this.servedBySvc(host, request)) {
      const format = formatOf(error) ?? this.registry.errorFormat((host as Partial<ExecutionContext>).getClass?.());
      writeProblem(request, http.getResponse<Response>(), this.batchTooLarge(request, error, toSvc(error)), format);
      return;
    }
    const appFilter = this.appFilterFor(error);
    if (appFilter) {
      appFilter.catch(error, host);
      return;
    }
    super.catch(error, host);
  }

  /**
   * A body over the JSON body limit on a batch create is a batch too large (400 SVC_BATCH_TOO_LARGE naming the body
   * limit and the body's size), refused like one over `batch.maxItems`, before any row is read.
   */
  private batchTooLarge(request: Request, raw: unknown, error: unknown): unknown {
    if (!(error instanceof SvcException) || error.code !== 'SVC_PAYLOAD_TOO_LARGE') return error;
    const maxItems = this.registry.batchItemsAt(request.method ?? '', request.path ?? request.url);
    if (maxItems === undefined) return error;
    // The parser's own figures where it gives them (body-parser's `limit` and `length`), else the platform's limit and
    // the declared length.
    const { limit, length } = (raw ?? {}) as { limit?: unknown; length?: unknown };
    const declared = Number(request.headers?.['content-length']);
    const size = typeof length === 'number' ? length : Number.isFinite(declared) ? declared : 0;
    const max = typeof limit === 'number' ? limit : this.registry.bodyLimit();
    return new BatchTooLargeException('bodyLimit', max, size, maxItems);
  }

  /** The request reached an Svc controller, or (failing before routing) its path lies under one. */
  private servedBySvc(host: ArgumentsHost, request: Request): boolean {
    const controller = (host as Partial<ExecutionContext>).getClass?.();
    if (controller) return declarationOf(controller) !== undefined;
    return this.registry.servesPath(request.path ?? request.url);
  }

  /**
   * The app's global filter Nest would have chosen for `error` without Svc's: the last registered one whose `@Catch`
   * takes it. Filters the app scopes to a request (`APP_FILTER` with `scope: REQUEST`) are not among them.
   */
  private appFilterFor(error: unknown): ExceptionFilter | undefined {
    const filters = this.appConfig.getGlobalFilters();
    for (let index = filters.length - 1; index >= 0; index--) {
      const filter = filters[index]!;
      if (filter instanceof ProblemDetailsFilter) continue;
      const caught = (Reflect.getMetadata(FILTER_CATCH_EXCEPTIONS, filter.constructor) ?? []) as Function[];
      if (caught.length === 0 || caught.some((type) => error instanceof type)) return filter;
    }
    return undefined;
  }
}

/**
 * Puts Svc's filter on a controller, before the filters the controller already has (Nest tries a controller's
 * filters last to first, so an `@UseFilters` of the app's on it stays first, whichever side of `@Svc` it is).
 */
export function useProblemDetailsFilter(controller: Function): void {
  const existing = (Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, controller) ?? []) as unknown[];
  if (existing.includes(ProblemDetailsFilter)) return;
  Reflect.defineMetadata(EXCEPTION_FILTERS_METADATA, [ProblemDetailsFilter, ...existing], controller);
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
