/** Entry points: `createSvc` (global scope) and `createCrud` (one entity), resolving everything at bootstrap. */
import { RealtimePublisher } from '../realtime/realtime-publisher';
import type { RealtimeTransport } from '../realtime/realtime-event';
import type { EntityDescription } from './entity-description';
import { resolveMaxInputDepth, type InputLimits } from '../schema/input-depth';
import type { OperationHandler } from '../config/entity-config';
import type { EntityConfig, PolicyFunction } from '../config/entity-config';
import type { EntityTarget, RowOf } from '../config/entity-fields';
import { resolveEntity } from '../entity/resolve-entity';
import { OPERATION_FACTS } from '../operations/operation-registry';
import type { GlobalSettings } from '../config/svc-settings';
import { validateGlobalOperationsMap, validateSettings, isPlainObject } from '../config/validate-settings';
import { suggestion } from '../config/did-you-mean';
import { ConfigurationException } from '../errors/configuration-exception';
import { requireSupportedPlatform } from '../errors/supported-versions';
import type { RepositoryAdapter, SvcInfrastructure } from '../persistence/repository-adapter';
import { SvcEngine } from './svc-engine';
import { SvcService } from './svc-service';
import { BUILT_IN_STRATEGIES } from '../pagination/built-in-strategies';
import { PAGINATION_PARAMS, type PaginationStrategy } from '../pagination/pagination-strategy';
import type { CacheStore } from '../cache/cache-store';
import type { ClassSchemaAdapter } from '../schema/body-validators';
import { MemoryCacheStore } from '../cache/memory-cache-store';
import { ResultCache, type CacheKeyFunction } from '../cache/result-cache';
import { outsideOperations } from './operation-span';
import type { ResolvedEntity } from '../entity/resolved-entity';

/** Global options: the settings keys, flat, plus the live objects that are not settings. */
export interface SvcOptions extends GlobalSettings {
  readonly infrastructure?: SvcInfrastructure;
  /** The global policy; an entity or operation policy overrides it. */
  readonly policy?: PolicyFunction;
  /** Where the result cache (`cache.ttl`) keeps entries. @default an in-memory LRU of 1000 entries */
  readonly cacheStore?: CacheStore;
  /** The partition of cached reads per caller (a user or tenant id), so scoped users never share entries. */
  readonly cacheKey?: CacheKeyFunction;
  /** Validates schema classes in write slots; SvcModule registers class-validator's. */
  readonly classSchemas?: ClassSchemaAdapter;
  /** Custom pagination strategies, selected by `pagination.strategy: '<name>'`. */
  readonly paginationStrategies?: readonly PaginationStrategy[];
  /** Bounds on request input: how deep a body (or a programmatic query or id) may nest. @default { maxDepth: 32 } */
  readonly inputLimits?: InputLimits;
  /** Carry committed writes' events to subscribers (`sse()` from @svc/sse, a broker, ...). @default [] */
  readonly realtimeTransports?: readonly RealtimeTransport[];
  /**
   * Every operation a span through the OpenTelemetry API, which records nothing until the app registers an SDK.
   * `false` does not even ask the API for one.
   * @default true
   */
  readonly tracing?: boolean;
}

/** Where a service gets its adapter when not from `SvcOptions.infrastructure`. */
export interface CrudRuntime {
  readonly adapter?: RepositoryAdapter;
  /** Where `createCrud` (the standalone function) gets the adapter when none is given, as `createSvc` does. */
  readonly infrastructure?: SvcInfrastructure;
  /** Handlers by operation id that win over the config's `handler` (the Nest binding passes `@Override` methods). */
  readonly handlers?: Readonly<Record<string, OperationHandler>>;
  /**
   * Names this service's entries in the result cache, so that no other service of the entity answers from them: a
   * name that stays the same from one release to the next (the Nest binding passes the controller's class name and
   * path). Without one, services take scopes in the order they are made, which a release that adds or removes a
   * controller of the entity shifts.
   */
  readonly cacheScope?: string;
}

const OPTION_KEYS = [
  'pagination',
  'errors',
  'cache',
  'delete',
  'realtime',
  'identifier',
  'operations',
  'infrastructure',
  'policy',
  'cacheStore',
  'cacheKey',
  'classSchemas',
  'paginationStrategies',
  'inputLimits',
  'realtimeTransports',
  'tracing',
];

export class SvcInstance {
  private readonly resolved = new Map<Function, ResolvedEntity>();
  /** One result cache for every entity of this instance, so a write invalidates the reads that embed it. */
  readonly resultCache: ResultCache;

  /** Built-in and registered pagination strategies by name. */
  private readonly strategies: ReadonlyMap<string, PaginationStrategy>;

  /** Every service this instance made, in the order they were made. */
  private readonly served: SvcService[] = [];

  /** The services of this instance (one per `createCrud` call: in Nest, one per `@Svc` controller). */
  services(): readonly SvcService[] {
    return [...this.served];
  }

  /** The description of every served entity, for bindings that derive their surface from it. */
  describe(): readonly EntityDescription[] {
    return this.served.map((service) => service.describe());
  }

  /** `inputLimits.maxDepth`, checked once. */
  private readonly maxInputDepth: number;
  /** Hands committed writes' events to the realtime transports. */
  private readonly publisher: RealtimePublisher;

  constructor(readonly options: SvcOptions) {
    this.maxInputDepth = resolveMaxInputDepth(options.inputLimits);
    this.resultCache = new ResultCache(options.cacheStore ?? new MemoryCacheStore(), options.cacheKey);
    this.strategies = registerStrategies(options.paginationStrategies ?? []);
    this.publisher = new RealtimePublisher(checkTransports(options.realtimeTransports), outsideOperations);
  }

  /** Resolves and validates one entity's config and returns its service. */
  createCrud<T = Record<string, unknown>>(
    target: EntityTarget<T>,
    config: EntityConfig<T> = {},
    runtime: CrudRuntime = {},
  ): SvcService<RowOf<T>> {
    if (runtime.infrastructure) requireSupportedPlatform(runtime.infrastructure.platform ?? []);
    const adapter = runtime.adapter ?? (runtime.infrastructure ?? this.options.infrastructure)?.createAdapter(target);
    if (!adapter) {
      throw new ConfigurationException({
        entity: target.name,
        message:
          'has no repository adapter. Pass infrastructure (for example typeorm({ dataSource })) to createSvc or createCrud, or an adapter to createCrud.',
      });
    }
    const {
      infrastructure: _i,
      policy,
      cacheStore: _s,
      cacheKey,
      classSchemas,
      paginationStrategies: _p,
      inputLimits: _l,
      realtimeTransports: _t,
      tracing,
      ...global
    } = this.options;
    const peers = (other: Function) => this.resolved.get(other);
    const resultCache = this.resultCache;
    const entity = resolveEntity({
      operationFacts: OPERATION_FACTS,
      target,
      // Typed by the entity for the caller; read as any entity's here (the boot checks hold it to the metadata).
      config: config as EntityConfig,
      global,
      globalPolicy: policy,
      adapter,
      peers,
      resultCache,
      cacheKeyed: cacheKey !== undefined,
      classSchemas,
      strategies: this.strategies,
      handlers: runtime.handlers,
      maxInputDepth: this.maxInputDepth,
      publisher: this.publisher,
      cacheScope: runtime.cacheScope,
    });
    if (!this.resolved.has(target)) this.resolved.set(target, entity);
    const service = new SvcService<RowOf<T>>(new SvcEngine(entity, tracing !== false));
    this.served.push(service as SvcService);
    return service;
  }
}

function registerStrategies(custom: readonly PaginationStrategy[]): ReadonlyMap<string, PaginationStrategy> {
  const out = new Map(BUILT_IN_STRATEGIES);
  for (const strategy of custom) {
    if (
      !strategy ||
      typeof strategy.name !== 'string' ||
      typeof strategy.plan !== 'function' ||
      !Array.isArray(strategy.params)
    ) {
      throw new ConfigurationException({
        path: 'paginationStrategies',
        message: 'each entry must be { name, params, plan }.',
      });
    }
    if (out.has(strategy.name)) {
      throw new ConfigurationException({
        path: `paginationStrategies.${strategy.name}`,
        message: 'is already a strategy name; pick another.',
      });
    }
    for (const param of strategy.params) {
      if (!PAGINATION_PARAMS.includes(param)) {
        throw new ConfigurationException({
          path: `paginationStrategies.${strategy.name}.params`,
          message: `'${param}' is not a pagination parameter; use ${PAGINATION_PARAMS.join(', ')}.`,
        });
      }
    }
    out.set(strategy.name, strategy);
  }
  return out;
}

/** The global scope: validates the options once and hands out entity services. */
export function createSvc(options: SvcOptions = {}): SvcInstance {
  if (!isPlainObject(options))
    throw new ConfigurationException({ message: 'createSvc options must be a plain object.' });
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key))
      throw new ConfigurationException({ path: key, message: `is not a known option.${suggestion(key, OPTION_KEYS)}` });
  }
  requireSupportedPlatform((options as SvcOptions).infrastructure?.platform ?? []);
  validateSettings(options as Record<string, unknown>, { scope: 'global' });
  validateGlobalOperationsMap(options.operations, { scope: 'global' }, [...OPERATION_FACTS.keys()]);
  if (options.policy !== undefined && typeof options.policy !== 'function') {
    throw new ConfigurationException({
      path: 'policy',
      message: 'must be a function (args) => boolean | Promise<boolean>.',
    });
  }
  if (options.tracing !== undefined && typeof options.tracing !== 'boolean')
    throw new ConfigurationException({ path: 'tracing', message: 'must be true or false.' });
  return new SvcInstance(Object.freeze({ ...options }));
}

/** One entity under an implicit root with the built-in defaults. */
export function createCrud<T = Record<string, unknown>>(
  target: EntityTarget<T>,
  config: EntityConfig<T> = {},
  runtime: CrudRuntime = {},
): SvcService<RowOf<T>> {
  return createSvc().createCrud<T>(target, config, runtime);
}

/** `realtimeTransports`: an array of objects with a `name` and a `publish(event)` method, checked at bootstrap. */
function checkTransports(transports: unknown): readonly RealtimeTransport[] {
  if (transports === undefined) return [];
  const valid =
    Array.isArray(transports) &&
    transports.every(
      (transport: unknown) =>
        typeof transport === 'object' &&
        transport !== null &&
        typeof (transport as RealtimeTransport).name === 'string' &&
        typeof (transport as RealtimeTransport).publish === 'function',
    );
  if (!valid)
    throw new ConfigurationException({
      path: 'realtimeTransports',
      message: 'must be an array of transports, each with a name and a publish(event) method (for example [sse()]).',
    });
  return [...(transports as RealtimeTransport[])];
}
