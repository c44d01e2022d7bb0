/** Builds every declared service when the module initialises, so configuration errors stop the app from booting. */
import { Inject, Injectable, VersioningType, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { SseTransport } from '@svc/sse';
import { ApplicationConfig, DiscoveryService, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import {
  ConfigurationException,
  createSvc,
  SvcException,
  type ErrorFormat,
  type OperationHandler,
  type SvcInstance,
  type SvcService,
} from '@svc/core';
import { requireSupportedPlatform, type SvcEngine } from '@svc/core/spi';
import { overridesOf } from './override.decorator';
import { declarationOf } from './svc-declarations';
import { classValidatorSchemas } from './class-validator-schemas';
import { SVC_OPTIONS } from './svc.constants';
import { applyOpenApi } from './openapi/apply-openapi';
import { svcOptionsOf, type SvcModuleOptions } from './svc-module-options';
import { holdSvcReplies, JSON_BODY_LIMIT_BYTES } from './http-exchange';
import { nestPlatform } from './nest-platform';
import { CONTROLLER_PATH_METADATA } from './nest-metadata-keys';
import { surfaceKindOf, type SvcSurfaceKind } from './surface-errors';

@Injectable()
export class SvcRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly byController = new Map<Function, SvcService>();
  private readonly byEntity = new Map<Function, SvcService>();
  private svc?: SvcInstance;

  constructor(
    @Inject(SVC_OPTIONS) private readonly options: SvcModuleOptions,
    /** Resolves the app's providers (guards, for the routes that run another operation's guards). */
    readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
    private readonly adapterHost: HttpAdapterHost,
    private readonly appConfig: ApplicationConfig,
  ) {}

  /** The path prefixes of Svc's controllers (global prefix included), known once the app has initialised. */
  private prefixes?: readonly string[];

  /** True when `path` lies under one of Svc's controllers: its errors answer as problem+json. */
  servesPath(path: string): boolean {
    this.prefixes ??= this.controllerPrefixes();
    return [cleanPath(path), this.unversioned(path)].some(
      (clean) =>
        clean !== undefined && this.prefixes!.some((prefix) => clean === prefix || clean.startsWith(`${prefix}/`)),
    );
  }

  /**
   * Under Nest's URI versioning, `path` without its version segment (`/v1/books/7` is `/books/7`, after the global
   * prefix when there is one), since a controller's own path holds none; undefined otherwise.
   */
  private unversioned(path: string): string | undefined {
    const versioning = this.appConfig.getVersioning();
    if (versioning?.type !== VersioningType.URI) return undefined;
    const global = this.appConfig.getGlobalPrefix().replace(/^\/+|\/+$/g, '');
    const segments = cleanPath(path).split('/').slice(1);
    const at = global === '' ? 0 : global.split('/').length;
    const prefix = versioning.prefix === false ? '' : (versioning.prefix ?? 'v');
    if (segments.length <= at || !segments[at]!.startsWith(prefix)) return undefined;
    return `/${[...segments.slice(0, at), ...segments.slice(at + 1)].join('/')}`;
  }

  private itemRoutes?: ReadonlyMap<string, number>;

  /**
   * The `batch.maxItems` of the batch create routed at `method` and `path` (`POST /books/batch`), if one is: a body
   * too large for the JSON body limit there is refused as a batch too large.
   */
  batchItemsAt(method: string, path: string): number | undefined {
    this.itemRoutes ??= new Map(
      this.controllers().flatMap(({ controller, service }) =>
        service.describe().operations.flatMap((operation) => {
          if (!operation.items || !operation.route) return [];
          const { method: verb, path: route } = operation.route;
          return this.fullPaths(controller).map(
            (full) => [`${verb} ${cleanPath(`${full}/${route}`)}`, operation.items!.maxItems] as const,
          );
        }),
      ),
    );
    return this.itemRoutes.get(`${method.toUpperCase()} ${cleanPath(path)}`);
  }

  /** The JSON body limit in bytes: Fastify's `bodyLimit` where the app runs on Fastify, else Express's default. */
  bodyLimit(): number {
    const app = this.adapterHost.httpAdapter?.getInstance?.() as
      { initialConfig?: { bodyLimit?: unknown } } | undefined;
    const fastify = app?.initialConfig?.bodyLimit;
    return typeof fastify === 'number' ? fastify : JSON_BODY_LIMIT_BYTES;
  }

  private surfacePaths?: ReadonlyMap<string, SvcSurfaceKind>;

  /** The surface (GraphQL, MCP) served at `path`, whose errors answer in that protocol's own shape. */
  surfaceAt(path: string): SvcSurfaceKind | undefined {
    this.surfacePaths ??= new Map(
      this.discovery.getControllers().flatMap((wrapper) => {
        const kind = wrapper.metatype ? surfaceKindOf(wrapper.metatype) : undefined;
        return kind ? this.fullPaths(wrapper.metatype as Function).map((full) => [full, kind] as const) : [];
      }),
    );
    return this.surfacePaths.get(cleanPath(path));
  }

  private controllerPrefixes(): string[] {
    return [...this.byController.keys()].flatMap((controller) => this.fullPaths(controller));
  }

  /** A controller's paths with the app's global prefix. */
  private fullPaths(controller: Function): string[] {
    const global = this.appConfig.getGlobalPrefix().replace(/^\/+|\/+$/g, '');
    return controllerPaths(controller).map((path) => `/${[global, path].filter((part) => part !== '').join('/')}`);
  }

  private resolved?: Promise<void>;

  /**
   * Builds every declared controller's service, once however often asked. SvcModule asks from `configure`, which Nest
   * runs before it maps the app's routes, so that only the routes they serve are mapped; an app without HTTP gets here
   * at onModuleInit.
   */
  resolve(): Promise<void> {
    this.resolved ??= this.buildServices();
    return this.resolved;
  }

  async onModuleInit(): Promise<void> {
    await this.resolve();
    // OpenAPI metadata for @nestjs/swagger (when installed), read when the app builds its document.
    applyOpenApi(
      this.controllers().map(({ controller, service }) => {
        const { entity } = service.engine;
        const filterParams = (operation: string) => entity.operations.get(operation)?.list?.filterParams;
        return { controller, description: service.describe(), rest: { envelope: entity.envelope, filterParams } };
      }),
      { streams: this.sse !== undefined },
    );
    // A shared cache store connects before the app serves (bounded by the store), so the first reads are shared too.
    // A store that cannot say degrades to uncached, as when it fails a read: never a failed boot.
    await Promise.resolve(this.options.cacheStore?.ready?.()).catch(() => undefined);
    const app = this.adapterHost.httpAdapter?.getInstance?.() as PlatformInstance | undefined;
    // Svc sets strong ETags itself; Express's automatic weak ETags would answer 304s of their own on lists.
    app?.set?.('etag', false);
    acceptJsonPatchOnFastify(app);
    holdSvcReplies(this.adapterHost.httpAdapter as unknown as Parameters<typeof holdSvcReplies>[0]);
  }

  private async buildServices(): Promise<void> {
    // One error for every unsupported package, Nest's and the infrastructure's (its ORM) together.
    requireSupportedPlatform([...nestPlatform(), ...(this.options.infrastructure?.platform ?? [])]);
    const instance = createSvc({ classSchemas: classValidatorSchemas(), ...svcOptionsOf(this.options) });
    this.svc = instance;
    await this.options.infrastructure?.bind?.({
      resolve: (token) => this.moduleRef.get(token as never, { strict: false }),
    });
    for (const wrapper of this.discovery.getControllers()) {
      const declaration = wrapper.metatype ? declarationOf(wrapper.metatype) : undefined;
      if (!declaration || this.byController.has(declaration.controller)) continue;
      const controller = wrapper.instance as Record<string | symbol, unknown>;
      const handlers: Record<string, OperationHandler> = {};
      for (const [operation, method] of overridesOf(declaration.controller)) {
        handlers[operation] = (input, context) =>
          (controller[method] as OperationHandler).call(controller, input, context);
      }
      const service = instance.createCrud(declaration.entity, declaration.config, {
        handlers,
        cacheScope: cacheScopeOf(declaration.controller),
      });
      this.byController.set(declaration.controller, service);
      if (!this.byEntity.has(declaration.entity)) this.byEntity.set(declaration.entity, service);
    }
  }

  /**
   * The Svc instance of this app, once the module has initialised: its `services()` and `describe()` list every
   * served entity, for providers that build another surface (OpenAPI, GraphQL, agent tools) from them.
   */
  get instance(): SvcInstance {
    if (!this.svc)
      throw new ConfigurationException({
        message: 'SvcModule has not initialised yet. Read the instance in onApplicationBootstrap or later.',
      });
    return this.svc;
  }

  /** The services of the app's controllers, each with the controller that declares it. */
  controllers(): readonly { readonly controller: Function; readonly service: SvcService }[] {
    return [...this.byController].map(([controller, service]) => ({ controller, service }));
  }

  /** The SSE transport among `realtimeTransports`, which serves the `events` routes. */
  get sse(): SseTransport | undefined {
    if (this.sseTransport === undefined) this.sseTransport = sseTransportOf(this.options.realtimeTransports) ?? null;
    return this.sseTransport ?? undefined;
  }

  /** The SSE transport, found once among `realtimeTransports` (null: none). */
  private sseTransport?: SseTransport | null;

  /** Open event streams end when the app closes, so the HTTP server can close. */
  /** Closes what the app handed Svc to run: its realtime transports and its cache store (each closes only the connections it opened itself). */
  async onModuleDestroy(): Promise<void> {
    for (const transport of this.options.realtimeTransports ?? []) (transport as { close?: () => void }).close?.();
    await (this.options.cacheStore as { close?: () => Promise<void> | void } | undefined)?.close?.();
  }

  /** The engine behind a decorated controller's generated routes. */
  /**
   * The `errors.format` of an error that no operation raised (a guard's refusal, a body the parser refused): the
   * entity config's on an Svc controller's route, else `SvcModule.forRoot`'s.
   */
  errorFormat(controller: Function | undefined): ErrorFormat | undefined {
    const service = controller ? this.byController.get(controller) : undefined;
    return service?.engine.entity.config.errors?.format ?? this.options.errors?.format;
  }

  engineFor(controller: Function): SvcEngine {
    return this.serviceOf(controller).engine;
  }

  /** The service behind a decorated controller's generated routes. */
  serviceOf(controller: Function): SvcService {
    const service = this.byController.get(controller);
    if (!service)
      throw new ConfigurationException({
        entity: controller.name,
        message: 'is not bound yet; the SvcModule did not initialise it. Import SvcModule.forRoot in the app module.',
      });
    return service;
  }

  /** The service of an entity (the first controller declaring it). */
  serviceFor<T>(entity: Function): SvcService<T> {
    const service = this.byEntity.get(entity);
    if (!service) {
      throw new ConfigurationException({
        entity: entity.name,
        message:
          'has no service: no controller of this app carries @Svc(' + entity.name + '). Add one, or use createCrud.',
      });
    }
    return service as SvcService<T>;
  }
}

/** What Svc touches of the platform's own instance: Express's settings, Fastify's body parsers. */
interface PlatformInstance {
  set?(key: string, value: unknown): void;
  hasContentTypeParser?(type: string): boolean;
  addContentTypeParser?(
    type: string,
    options: { parseAs: 'string'; bodyLimit: number },
    parse: (request: unknown, body: string, done: (error: Error | null, value?: unknown) => void) => void,
  ): void;
}

/**
 * Fastify refuses a media type it has no parser for before any route runs; JSON Patch bodies
 * (`application/json-patch+json`) get one, so `patchOne` and relation patches read them as on Express.
 */
function acceptJsonPatchOnFastify(app: PlatformInstance | undefined): void {
  const type = 'application/json-patch+json';
  if (!app?.addContentTypeParser || app.hasContentTypeParser?.(type)) return;
  app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT_BYTES }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body) as unknown);
    } catch {
      done(new SvcException('SVC_MALFORMED_REQUEST', { detail: 'The JSON Patch is not valid JSON.' }));
    }
  });
}

/** The SSE transport among the app's realtime transports (one with a `stream` method), if any. */
function sseTransportOf(transports: readonly unknown[] | undefined): SseTransport | undefined {
  return transports?.find(
    (transport): transport is SseTransport => typeof (transport as Partial<SseTransport>)?.stream === 'function',
  );
}

/** The paths of a controller's `@Controller(...)`, without leading or trailing slashes: '' when it names none. */
/** `path` without its query and with one leading slash, none trailing. */
function cleanPath(path: string): string {
  return `/${path.split('?')[0]!.replace(/^\/+|\/+$/g, '')}`;
}

function controllerPaths(controller: Function): string[] {
  const paths = Reflect.getMetadata(CONTROLLER_PATH_METADATA, controller) as string | string[] | undefined;
  return (Array.isArray(paths) ? paths : [paths ?? '']).map((path) => path.replace(/^\/+|\/+$/g, ''));
}

/**
 * A controller's name in the result cache's keys: its class name and paths, which stay the same from one release to
 * the next, so adding or removing another controller of the entity never hands its entries to this one.
 */
function cacheScopeOf(controller: Function): string {
  return `${controller.name}${controllerPaths(controller)
    .map((path) => `/${path}`)
    .join(',')}`;
}
