/**
 * @svc/core: what an app imports, by name. Adapters and surfaces import their contracts from `@svc/core/spi`; the
 * engine's internals are in neither.
 */
export { createSvc, createCrud, SvcInstance } from './service/create-svc';
export type { SvcOptions, CrudRuntime } from './service/create-svc';
export type { EntityTarget, FieldOf, PathOf, RowInput, RowOf, SortKeyOf } from './config/entity-fields';
export type { InputLimits } from './schema/input-depth';
export { SvcService } from './service/svc-service';
export type {
  CallOptions,
  ListEnvelope,
  BatchResult,
  AggregateItem,
  AggregateResultEnvelope,
} from './service/svc-service';
export type { SvcContext, SvcContextTypes, SvcRequest } from './config/svc-context';
export { builtInHandlers, createBuiltInHandlers, withListMeta } from './operations/list-handlers';
export type { ListResult, ListMetaContributor } from './operations/list-handlers';
export type { ListReadPlan } from './query/resolve-list-query';
export type { PaginationStrategy, PagePlan, PageContext, PageSettings } from './pagination/pagination-strategy';
export type {
  SvcSettings,
  GlobalSettings,
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
export type {
  EntityConfig,
  EntityStructure,
  BatchConfig,
  AggregateConfig,
  AggregateFunctionName,
  AggregateQuery,
  CountQuery,
  UpsertConfig,
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
  HandlerContext,
  AccessConfig,
  AccessRule,
  NestedWriteConfig,
} from './config/entity-config';
export type { EnvelopeConfig, ListEnvelopeConfig, ResolvedEnvelope } from './config/envelope-config';
export type { ScopedRepository } from './operations/scoped-repository';
export type { IncludeConfigInput, RelationConfigInput, RelationReadStrategy } from './config/include-config';
export type { SelectConfigInput } from './query/select-config';
export type { SetConfig, SetFunction, SetArgs } from './schema/forced-values';
export type { StandardSchemaV1, ValidationOutcome } from './schema/body-validators';
export type { SearchConfigInput } from './query/search-config';
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
  BatchTooLargeException,
  UnresolvedRelationException,
  PersistenceException,
  TransactionFailedException,
  DatabaseUnavailableException,
  InternalException,
} from './errors/svc-exception';
export type { ConflictOptions, SvcErrorItem, SvcExceptionOptions } from './errors/svc-exception';
export { ConfigurationException } from './errors/configuration-exception';
export type { ConfigurationProblem } from './errors/configuration-exception';
export { toProblemDetails, PROBLEM_CONTENT_TYPE } from './errors/problem-details';
export type { ProblemDetails, ProblemDetailsOptions } from './errors/problem-details';
export type { ErrorAnswer, ErrorFormat } from './errors/error-format';
export type { EntityKey } from './persistence/entity-metadata';
export type { Row } from './persistence/repository-adapter';
export { andFilters } from './persistence/query-ast';
export { sql, table } from './persistence/sql-fragment';
export type { SqlFragment, ColumnReference, TableReference } from './persistence/sql-fragment';
export type { ComputedConfig, ComputedFieldConfig, ComputedKind, ColumnOf } from './config/computed-fields';
export type { FilterNode } from './persistence/query-ast';
export type { CacheStore } from './cache/cache-store';
export { MemoryCacheStore } from './cache/memory-cache-store';
export type { MemoryCacheStoreOptions } from './cache/memory-cache-store';
export type { CacheKeyFunction } from './cache/result-cache';
export type { RealtimeEvent } from './realtime/realtime-event';
export type { OperandShape } from './query/operand-shapes';
export type {
  AggregateDescription,
  AnswerShape,
  BodySchema,
  BodyShape,
  EntityDescription,
  FieldDescription,
  OperandDescription,
  OperationDescription,
  OperationSchemas,
  QueryShape,
  RelationDescription,
  ResponseDescription,
  RolesDescription,
  NestedWriteDescription,
  WriteFieldDescription,
  WriteSlotDescription,
} from './service/entity-description';
