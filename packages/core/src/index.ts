/** @svc/core: every public export, by name. */
export { createSvc, createCrud, SvcInstance } from './service/create-svc';
export type { SvcOptions, CrudRuntime } from './service/create-svc';
export type { InputLimits } from './schema/input-depth';
export { MAX_CONFIGURABLE_DEPTH as MAX_INPUT_DEPTH, nestsDeeperThan } from './schema/input-depth';
export { SvcService } from './service/svc-service';
export type { CallOptions, ListEnvelope } from './service/svc-service';
export type { GatedCall, OperationGate, SurfaceCall } from './service/operation-gate';
export { checkGated, executeGated } from './service/operation-gate';
export { SvcEngine, EXPOSE_INTERNALS } from './service/svc-engine';
export type { SvcContext, SvcContextTypes, SvcRequest } from './config/svc-context';
export type { ExecuteRequest, ExecuteResponse } from './pipeline/operation-call';
export { STANDARD_OPERATIONS } from './operations/operation-registry';
export type { OperationDefinition } from './operations/operation-definition';
export type { OperationFacts, WordingSubject, WriteSlotName } from './config/operation-facts';
export { pluralOf } from './config/operation-facts';
export { builtInHandlers, createBuiltInHandlers, withListMeta } from './operations/list-handlers';
export type { ListResult, ListMetaContributor } from './operations/list-handlers';
export type { ListReadPlan } from './query/resolve-list-query';
export type { PaginationStrategy, PagePlan, PageContext, PageSettings } from './pagination/pagination-strategy';
export type { OperationFlow } from './operations/operation-flows';
export type { Stage, FlowState } from './pipeline/stage';

export type {
  SvcSettings,
  GlobalSettings,
  ResolvedSettings,
  PaginationSettings,
  CacheSettings,
  DeleteSettings,
  DeleteStrategy,
  ErrorSettings,
  RealtimeSettings,
  RealtimeEventId,
  IdentifierSettings,
  StandardOperationId,
  OperationSettingsById,
  PaginationStrategyName,
} from './config/svc-settings';
export { BUILT_IN_SETTINGS } from './config/built-in-settings';
export { mergeSettings, mergeSettingsChain } from './config/merge-settings';
export type {
  EntityConfig,
  EntityStructure,
  EntityOperationsMap,
  StandardOperationConfig,
  FilterConfig,
  SortConfig,
  SchemaConfig,
  FieldList,
  FieldListSlot,
  InputSlot,
  ExcludeList,
  FilterExpression,
  FindManyQuery,
  ApplyArgs,
  PolicyArgs,
  PolicyFunction,
  OperationHandler,
  SvcOperationInput,
  RouteOptions,
  RouteDecorator,
  OperationMeta,
  CustomOperationConfig,
} from './config/entity-config';
export type { ScopedRepository } from './operations/scoped-repository';
export type { IncludeConfigInput, RelationConfigInput, RelationReadStrategy } from './config/include-config';
export type { SelectConfigInput } from './query/select-config';
export type { SetConfig, SetFunction, SetArgs } from './schema/forced-values';
export type { ClassSchemaAdapter, StandardSchemaV1, ValidationOutcome } from './schema/body-validators';
export type { SearchConfigInput } from './query/search-config';
export type { ResolvedEntity, ResolvedOperation } from './entity/resolved-entity';

export { ERROR_CATALOG, errorTypeUri } from './errors/error-catalog';
export type { SvcErrorCode, ErrorCatalogEntry } from './errors/error-catalog';
export {
  SvcException,
  QueryInvalidException,
  QueryUnsupportedParamException,
  ValidationFailedException,
  MalformedRequestException,
  ForbiddenException,
  NotFoundException,
  OperationDisabledException,
  ConflictException,
  AlreadyDeletedException,
  NotDeletedException,
  PreconditionFailedException,
  PreconditionUnsupportedException,
  UnresolvedRelationException,
  PersistenceException,
  TransactionFailedException,
  DatabaseUnavailableException,
  InternalException,
} from './errors/svc-exception';
export type { SvcErrorItem, SvcExceptionOptions } from './errors/svc-exception';
export { ConfigurationException } from './errors/configuration-exception';
export type { ConfigurationProblem } from './errors/configuration-exception';
export { toProblemDetails, toSvcException, PROBLEM_CONTENT_TYPE } from './errors/problem-details';
export type { ProblemDetails, ProblemDetailsOptions } from './errors/problem-details';

export type {
  EntityMetadata,
  ColumnMetadata,
  ColumnKind,
  RelationMetadata,
  RelationKind,
  EntityKey,
} from './persistence/entity-metadata';
export type {
  RepositoryAdapter,
  AdapterSession,
  Row,
  FindManyArgs,
  FindManyResult,
  FindOneArgs,
  LoadRelationArgs,
  WriteArgs,
  UpdateArgs,
  SvcInfrastructure,
  InfrastructureResolver,
  UpdateRelationArgs,
} from './persistence/repository-adapter';
export { FILTER_OPERATORS, andFilters, isDatabaseSpelling } from './persistence/query-ast';
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
export type { QueryPairs } from './query/parse-query-string';
export { computeEtag, canonicalJson } from './cache/etag';
export type { CacheStore } from './cache/cache-store';
export { MemoryCacheStore } from './cache/memory-cache-store';
export type { MemoryCacheStoreOptions } from './cache/memory-cache-store';
export type { CacheKeyFunction } from './cache/result-cache';
export type { WriteOutcome } from './pipeline/write-outcome';
export type { RealtimeEvent, RealtimeTransport } from './realtime/realtime-event';
export { realtimeEnvelopeOf, realtimeEventOf } from './realtime/event-subject';
export type { RealtimeEnvelope } from './realtime/event-subject';
export { realtimeEventsOf } from './operations/realtime-subscription';
export type { RealtimeSubscription, SubscribeOptions } from './operations/realtime-subscription';
export { routeTableOf, EVENTS_PATH } from './operations/route-table';
export type { SvcRoute, HttpMethod } from './operations/route-table';
export { describeEntity } from './service/entity-description';
export { admitNull, columnJsonSchema, PROBLEM_JSON_SCHEMA, referenceRulesJsonSchema } from './service/json-schema';
export { filterJsonSchema } from './service/filter-json-schema';
export { offsetPage } from './service/offset-page';
export type { OffsetPage } from './service/offset-page';
export type { OperandShape } from './query/operand-shapes';
export type { ColumnSchemaSource, JsonSchema, SchemaDirection } from './service/json-schema';
export type {
  EntityDescription,
  FieldDescription,
  OperandDescription,
  OperationDescription,
  RelationDescription,
  WriteFieldDescription,
  WriteSlotDescription,
} from './service/entity-description';
export { readInstalledVersion, requireSupportedPlatform, satisfiesRange } from './errors/supported-versions';
export type { InstalledVersion, PackageRequire, PlatformPackage } from './errors/supported-versions';
