/** The frozen result of resolving one entity's config at bootstrap: what every request reads, nothing recomputed. */
import type { ClassSchemaAdapter } from '../schema/body-validators';
import type { GlobalSettings } from '../config/svc-settings';
import type { EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';
import type { RepositoryAdapter } from '../persistence/repository-adapter';
import type { FilterAllowlist } from '../query/filter-allowlist';
import type { ListQueryConfig } from '../query/list-query-config';
import type { OutputProjection } from '../schema/output-projection';
import type { WriteSchema } from '../schema/write-schema';
import type { SearchConfig } from '../query/search-config';
import type { SelectConfig } from '../query/select-config';
import type { IncludeConfig } from '../config/include-config';
import type { ForcedValues } from '../schema/forced-values';
import type { ResolvedBatch } from '../config/batch-config';
import type { ResolvedAggregate } from '../config/aggregate-config';
import type { ResultCache } from '../cache/result-cache';
import type { RealtimePublisher } from '../realtime/realtime-publisher';
import type { PaginationStrategy } from '../pagination/pagination-strategy';
import type { BodyValidator } from '../schema/body-validators';
import type { OutputValidator } from '../schema/output-slots';
import type {
  EntityConfig,
  FilterConfig,
  OperationHandler,
  PolicyFunction,
  RouteOptions,
} from '../config/entity-config';
import type { OperationState } from '../config/resolve-operations';
import type { ArrayRelation, RelationAction } from '../config/array-relations';
import type { NestedRelation } from '../config/nested-writes';
import type { ResolvedEnvelope } from '../config/envelope-config';
import type { ToOneReference } from '../config/to-one-references';
import type { RealtimeEventId, ResolvedSettings, SvcSettings } from '../config/svc-settings';
import type { OperationFacts } from '../config/operation-facts';
import type { SvcContext } from '../config/svc-context';
import type { ResolvedComputed } from '../config/computed-fields';

/** `access` resolved: the caller's role, and the entity as each role with a rule sees it. */
export interface ResolvedAccess {
  readonly role: (context: SvcContext) => string | undefined;
  readonly views: ReadonlyMap<string, ResolvedEntity>;
  /** Each role's rule as configured, its field lists resolved to names (`undefined`: narrows nothing). */
  readonly rules: ReadonlyMap<string, RoleFields>;
}

/** One role's resolved rule. */
export interface RoleFields {
  readonly read?: ReadonlySet<string>;
  readonly create?: ReadonlySet<string> | false;
  readonly update?: ReadonlySet<string> | false;
  readonly delete: boolean;
}

/** What a custom operation adds to the resolved operation. */
export interface CustomOperationSpec {
  readonly kind: 'read' | 'write';
  readonly cardinality: 'one' | 'many';
  readonly realtimeEvent?: string;
  /** `schema.input`: validates (and may transform) the body; absent, the body reaches the handler as sent. */
  readonly input?: BodyValidator;
  /** The JSON Schema of what `input` accepts, when its validator can say (for OpenAPI). */
  readonly inputJsonSchema?: Readonly<Record<string, unknown>>;
  /** `schema.output` as a class: its runtime fields (empty when it has none, which rule 7 reports per request). */
  readonly outputClassFields?: readonly string[];
  /** `schema.output` as a field list. */
  readonly outputList?: readonly string[];
}

export interface ResolvedOperation {
  /** A standard operation id, or a custom operation's id. */
  readonly id: string;
  /** A standard operation's facts (its definition, less the stages). */
  readonly facts?: OperationFacts;
  /** The standard operation whose per-operation settings rules this one follows (itself, for a standard one). */
  readonly settingsAs: OperationFacts;
  /** The realtime event a committed call publishes (a standard write's, or a relation member write's `updated`). */
  readonly event?: RealtimeEventId;
  /** Writes nothing of its own (findMany, findOne, a custom read, a relation member list): no cache invalidation. */
  readonly reads: boolean;
  /** `meta.routes`, for the bindings and the success status. */
  readonly route?: RouteOptions;
  readonly custom?: CustomOperationSpec;
  /** A relation array write (`relations.<name>.write`): `<relation>:<action>` operations. */
  readonly relationWrite?: { readonly relation: string; readonly action: RelationAction };
  readonly state: OperationState;
  readonly settings: ResolvedSettings;
  /** The settings scopes up to this operation, so a per-call scope can be merged on top. */
  readonly scopes: readonly (SvcSettings | undefined)[];
  readonly policy?: PolicyFunction;
  readonly handler?: OperationHandler;
  /** Reads hide soft-deleted rows / the delete family soft-deletes. */
  readonly softDelete: boolean;
  /** findMany and findOne. */
  readonly list?: ListQueryConfig;
  /**
   * findMany and findOne: the relations whose rows the read depends on, the included ones and those a relation path in
   * its filter, sort or search fields (`author.name`) goes through. A write to their targets drops the read's cached
   * entries, and a target's per-caller scope keeps them from being shared.
   */
  readonly readsThrough?: readonly RelationMetadata[];
  /** Body writes: the write slot in force (operation part, else the entity's root slot). */
  readonly input?: WriteSchema;
  /** Reads: the query gate (operation part, else schema.input.query). */
  readonly queryValidator?: BodyValidator;
  /** A Standard Schema that asserts the items this operation serves (operation part, else the entity slot). */
  readonly outputValidator?: OutputValidator;
  /** An operation-level output class: the fields its item responses serve. */
  readonly outputFields?: readonly string[];
}

export interface ResolvedEntity {
  readonly name: string;
  readonly target: Function;
  readonly config: EntityConfig;
  readonly metadata: EntityMetadata;
  readonly adapter: RepositoryAdapter;
  /** `computed`: the fields the database computes per row and caller (also columns of `metadata`, virtual). */
  readonly computed: readonly ResolvedComputed[];
  /** The route parameter and the fields a single row is looked up by (the primary key, or `identifier.field`). */
  readonly lookup: { readonly param: string; readonly fields: readonly string[] };
  /** Standard and custom operations by id. */
  readonly operations: ReadonlyMap<string, ResolvedOperation>;
  /** The standard list of rows, when served (on or disabled): whose allowlists programmatic queries and subscriptions use. */
  readonly listOperation?: ResolvedOperation;
  /** The standard read by id, when served. */
  readonly itemOperation?: ResolvedOperation;
  readonly filterApply?: FilterConfig['apply'];
  readonly serverFilter: FilterAllowlist;
  readonly input: { readonly create: WriteSchema; readonly update: WriteSchema; readonly patch: WriteSchema };
  /** Item responses: the selectable fields (select.fields closes every body). */
  readonly output: OutputProjection;
  readonly select: SelectConfig;
  readonly forced: ForcedValues;
  /** `batch`: the batch writes' bounds and upsert rule, where the entity serves any batch write. */
  readonly batch?: ResolvedBatch;
  /** `aggregate`: the functions, group fields and group limit, where the entity serves aggregates. */
  readonly aggregate?: ResolvedAggregate;
  /** How deep a request's body, programmatic query or id may nest. */
  readonly maxInputDepth: number;
  /** Owning to-one relations, which writes reference by id (checked against the target's scope). */
  readonly references: readonly ToOneReference[];
  /** To-many relations that take array writes, by name. */
  readonly arrayRelations: ReadonlyMap<string, ArrayRelation>;
  /** Relations that take nested writes in create and update bodies (`relations.<name>.write.nested`), by name. */
  readonly nested: ReadonlyMap<string, NestedRelation>;
  /** A role's view (`access`): the nested relations its rule lets it write, per slot; undefined lets every one. */
  readonly nestedWritable?: { readonly create?: ReadonlySet<string>; readonly update?: ReadonlySet<string> };
  /** Array relations the update slot lets clients write. */
  readonly writableMembers: ReadonlySet<string>;
  /** Pagination strategies by name (built-in plus registered). */
  readonly strategies: ReadonlyMap<string, PaginationStrategy>;
  /** The instance's result cache (used when `cache.ttl` is on). */
  readonly resultCache: ResultCache;
  /** This service's scope in the result cache's keys (`ResultCache.scopeOf`). */
  readonly cacheScope: string;
  /** The instance's realtime publisher, which the after-commit step hands events to. */
  readonly publisher: RealtimePublisher;
  readonly include: IncludeConfig;
  /** Reads of this entity hide soft-deleted rows (resolved soft delete at entity scope). */
  readonly softDeleteOnReads: boolean;
  /** The resolved config of another entity served by the same Svc instance, if any. */
  peer(target: Function): ResolvedEntity | undefined;
  readonly search?: SearchConfig;
  /** A role's view whose rule refuses updates (`update: false`): an upsert may not change the rows it matches. */
  readonly refusesUpdates?: boolean;
  /** A role's view that reads fewer fields than the entity serves everyone (`access.roles.<role>.read`). */
  readonly readsLess?: boolean;
  /** `access`: the caller's role and the entity as each role sees it (`roleView` picks); absent on a role's view. */
  readonly access?: ResolvedAccess;
  /** `envelope`: the keys REST wraps this entity's bodies in; absent where it keeps Svc's own shapes. */
  readonly envelope?: ResolvedEnvelope;
}

/** What `resolveEntity` resolves one entity from, at bootstrap. */
export interface ResolveEntityArgs {
  readonly target: Function;
  readonly config: EntityConfig;
  readonly global: GlobalSettings;
  readonly globalPolicy?: PolicyFunction;
  readonly adapter: RepositoryAdapter;
  /** Looks up entities resolved by the same instance (for nested includes and scoped children). */
  readonly peers?: (target: Function) => ResolvedEntity | undefined;
  /** The instance's result cache. @default a private in-memory one */
  readonly resultCache?: ResultCache;
  /** A `cacheKey(context)` partitions cached reads (needed to cache scoped reads). */
  readonly cacheKeyed?: boolean;
  /** Validates schema classes in write slots (SvcModule registers class-validator's). */
  readonly classSchemas?: ClassSchemaAdapter;
  /** Pagination strategies by name: the built-in ones plus `SvcOptions.paginationStrategies`. */
  readonly strategies?: ReadonlyMap<string, PaginationStrategy>;
  /** Handlers bound by the framework (`@Override(<id>)` methods), ahead of `handler` in the config. */
  readonly handlers?: Readonly<Record<string, OperationHandler>>;
  /** The standard operations' facts, by id (the operation registry's). */
  readonly operationFacts: ReadonlyMap<string, OperationFacts>;
  /** `SvcOptions.inputLimits.maxDepth`. @default 32 */
  readonly maxInputDepth?: number;
  /** The instance's realtime publisher. @default one with no transport */
  readonly publisher?: RealtimePublisher;
  /** `CrudRuntime.cacheScope`: the service's stable name in the result cache's keys. */
  readonly cacheScope?: string;
  /** A role's view (`access`): its scope in the result cache's keys, taken as is (the service's own, plus the role). */
  readonly roleScope?: string;
}
