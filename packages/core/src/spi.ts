/**
 * @svc/core/spi: what repository adapters, realtime transports and surfaces (GraphQL, the agent tools, the Nest
 * binding) build on: the port contracts, the query AST, the engine's transport-neutral entry, the schema helpers every
 * surface renders with, and the platform checks. An app imports `@svc/core`, and so does a cache store: `CacheStore`
 * and `RealtimeEvent`, which an app hands in or handles, are there.
 *
 * A name here is imported by a package outside core, or its export carries an `@extensionPoint` tag naming who
 * implements or calls it (a third-party adapter, transport or surface needs it though no package here imports it);
 * `test/repo/spi-exports.test.ts` holds every export to that.
 */
export { MAX_CONFIGURABLE_DEPTH as MAX_INPUT_DEPTH, nestsDeeperThan } from './schema/input-depth';
/**
 * The gate and the surface's call: a binding implements `OperationGate` (the Nest binding runs a route's guards), which
 * receives a `GatedCall`; a surface hands a `SurfaceCall` to `executeGated` or `checkGated`.
 * @extensionPoint a host binding implements OperationGate; a surface calls executeGated and checkGated
 */
export type { GatedCall, OperationGate, SurfaceCall } from './service/operation-gate';
export { checkGated, executeGated } from './service/operation-gate';
export { countStatement } from './service/operation-span';
export { SvcEngine, EXPOSE_INTERNALS, ERROR_FORMAT } from './service/svc-engine';
export type { ExecuteRequest, ExecuteResponse } from './pipeline/operation-call';
export { STANDARD_OPERATIONS } from './operations/operation-registry';
/**
 * What each of `STANDARD_OPERATIONS` is: a surface reads its route, slots, answer and hints, and words it by passing a
 * `WordingSubject` to `wording.summary` or `wording.sentence`.
 * @extensionPoint a surface reads the standard operations' facts
 */
export type { OperationFacts, WordingSubject, WriteSlotName } from './config/operation-facts';
export { pluralOf } from './config/operation-facts';
export type { ClassSchemaAdapter } from './schema/body-validators';
export { toSvcException } from './errors/problem-details';
/**
 * What a repository adapter reports about an entity: its columns, key and relations.
 * @extensionPoint a repository adapter builds EntityMetadata
 */
export type {
  EntityMetadata,
  EntityKey,
  ColumnMetadata,
  ColumnKind,
  ColumnList,
  RelationMetadata,
  RelationKind,
} from './persistence/entity-metadata';
/**
 * The repository port: a repository adapter implements `RepositoryAdapter` (and `AdapterSession` for a transaction) and
 * takes and returns these arguments and results; `SvcInfrastructure` is what it provides the engine.
 * @extensionPoint a repository adapter implements RepositoryAdapter
 */
export type {
  RepositoryAdapter,
  ReadRouting,
  AdapterSession,
  Row,
  FindManyArgs,
  FindManyResult,
  FindOneArgs,
  LoadRelationArgs,
  WriteArgs,
  UpdateArgs,
  WrittenRow,
  KeyedChange,
  SvcInfrastructure,
  InfrastructureResolver,
  UpdateRelationArgs,
  AggregateArgs,
  AggregateFunction,
  AggregateGroup,
  AggregateMeasure,
  AggregateOrderTerm,
  AggregateResult,
  AggregateSortKey,
  GroupKey,
} from './persistence/repository-adapter';
export { isDatabaseSpelling } from './persistence/query-ast';
/**
 * The filter tree and sort keys a repository adapter translates into its queries.
 * @extensionPoint a repository adapter translates FilterNode and SortKey
 */
export type {
  FilterNode,
  FilterCondition,
  FilterGroup,
  FilterNot,
  FilterOperator,
  SortKey,
  RowView,
  DatabaseSpelling,
} from './persistence/query-ast';
export { parseQueryString } from './query/parse-query-string';
export { relationOfPath } from './config/resolve-field-path';
export type { QueryPairs } from './query/parse-query-string';
export type { WriteOutcome } from './pipeline/write-outcome';
/**
 * The realtime port: a transport that carries committed events (SSE, a message broker) implements it.
 * @extensionPoint a realtime transport implements RealtimeTransport
 */
export type { RealtimeTransport } from './realtime/realtime-event';
export { realtimeEnvelopeOf, realtimeEventOf } from './realtime/event-subject';
/**
 * An event with the stored row it is about, as `realtimeEnvelopeOf` gives it.
 * @extensionPoint a realtime transport that carries events between processes encodes and decodes it
 */
export type { RealtimeEnvelope } from './realtime/event-subject';
/**
 * What a streaming surface opens with `SvcService.subscribe(options)` and filters each event through.
 * @extensionPoint a realtime surface passes SubscribeOptions and reads the RealtimeSubscription
 */
export type { RealtimeSubscription, SubscribeOptions } from './operations/realtime-subscription';
export { routeTableOf } from './operations/route-table';
/**
 * The realtime subscription's path under a collection, as the route table's stream route and the description's
 * `realtime.path` give it.
 * @extensionPoint a realtime surface that mounts its own stream route serves it at this path
 */
export { EVENTS_PATH } from './operations/route-table';
/**
 * The REST routes `routeTableOf` lists.
 * @extensionPoint an HTTP binding mounts each SvcRoute on its router by its HttpMethod
 */
export type { SvcRoute, HttpMethod } from './operations/route-table';
export { admitNull, columnJsonSchema, PROBLEM_JSON_SCHEMA } from './service/json-schema';
export { schemaNameOf } from './service/entity-schemas';
export { mapSchemaRefs } from './service/schema-refs';
export { offsetPage } from './service/offset-page';
/**
 * The page `offsetPage` reads from a surface's arguments.
 * @extensionPoint a surface that pages a list calls offsetPage
 */
export type { OffsetPage } from './service/offset-page';
/**
 * The schema helpers' arguments and results.
 * @extensionPoint a surface renders the JsonSchema the helpers build
 */
export type { ColumnSchemaSource, JsonSchema, SchemaDirection } from './service/json-schema';
export { readInstalledVersion, requireSupportedPlatform } from './errors/supported-versions';
/**
 * The platform check: an adapter or binding reads the versions it runs on and hands its `PlatformPackage`s to
 * `requireSupportedPlatform`.
 * @extensionPoint an adapter or binding checks the platform it runs on
 */
export type { InstalledVersion, PackageRequire, PlatformPackage } from './errors/supported-versions';
export { fieldsTaking } from './service/aggregate-json-schema';
export { MEASURE_FUNCTIONS, type MeasureFunction } from './config/aggregate-config';
export { didYouMean } from './config/did-you-mean';
/**
 * A read's `computed` fields as SQL for its caller: an adapter writes each into its SELECT list, each column and table
 * reference as its ORM names it and every other value bound.
 */
export type { ComputedSelect } from './persistence/sql-fragment';
export { isColumnReference, isTableReference } from './persistence/sql-fragment';
