/**
 * @svc/core/spi: what repository adapters, realtime transports, cache stores and surfaces (GraphQL, the agent tools,
 * the Nest binding) build on: the port contracts, the query AST, the engine's transport-neutral entry, the schema
 * helpers every surface renders with, and the platform checks. An app imports `@svc/core`.
 */
export { MAX_CONFIGURABLE_DEPTH as MAX_INPUT_DEPTH, nestsDeeperThan } from './schema/input-depth';
export type { GatedCall, OperationGate, SurfaceCall } from './service/operation-gate';
export { checkGated, executeGated } from './service/operation-gate';
export { countStatement } from './service/operation-span';
export { SvcEngine, EXPOSE_INTERNALS } from './service/svc-engine';
export type { ExecuteRequest, ExecuteResponse } from './pipeline/operation-call';
export { STANDARD_OPERATIONS } from './operations/operation-registry';
export type { OperationFacts, WordingSubject, WriteSlotName } from './config/operation-facts';
export { pluralOf } from './config/operation-facts';
export type { ClassSchemaAdapter } from './schema/body-validators';
export { toSvcException } from './errors/problem-details';
export type {
  EntityMetadata,
  ColumnMetadata,
  ColumnKind,
  ColumnList,
  RelationMetadata,
  RelationKind,
} from './persistence/entity-metadata';
export type {
  RepositoryAdapter,
  AdapterSession,
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
export { FILTER_OPERATORS, isDatabaseSpelling } from './persistence/query-ast';
export type {
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
export type { RealtimeTransport } from './realtime/realtime-event';
export { realtimeEnvelopeOf, realtimeEventOf } from './realtime/event-subject';
export type { RealtimeEnvelope } from './realtime/event-subject';
export type { RealtimeSubscription, SubscribeOptions } from './operations/realtime-subscription';
export { routeTableOf, EVENTS_PATH } from './operations/route-table';
export type { SvcRoute, HttpMethod } from './operations/route-table';
export { admitNull, columnJsonSchema, PROBLEM_JSON_SCHEMA, referenceRulesJsonSchema } from './service/json-schema';
export { filterJsonSchema } from './service/filter-json-schema';
export { offsetPage } from './service/offset-page';
export type { OffsetPage } from './service/offset-page';
export type { ColumnSchemaSource, JsonSchema, SchemaDirection } from './service/json-schema';
export { readInstalledVersion, requireSupportedPlatform, satisfiesRange } from './errors/supported-versions';
export type { InstalledVersion, PackageRequire, PlatformPackage } from './errors/supported-versions';
// What an adapter shares with handler code, so an adapter needs only this entry.
export { andFilters } from './persistence/query-ast';
export type { FilterNode } from './persistence/query-ast';
export type { Row } from './persistence/repository-adapter';
export type { EntityKey } from './persistence/entity-metadata';
export {
  aggregateArgumentsJsonSchema,
  aggregateResultJsonSchema,
  aggregateSortKeys,
  fieldsTaking,
  measureValueSchema,
} from './service/aggregate-json-schema';
export { MEASURE_FUNCTIONS, type MeasureFunction } from './config/aggregate-config';
export { didYouMean } from './config/did-you-mean';
