/** Public API of @svc/graphql. */
export { buildSvcSchema } from './build-svc-schema';
export type { SvcSchemaOptions } from './build-svc-schema';
export { createSvcGraphqlHandler } from './svc-graphql-handler';
export { plannedExecute } from './planned-execution';
export type { SvcGraphqlHandler, SvcGraphqlHandlerOptions } from './svc-graphql-handler';
export { maxRootFieldsRule, DEFAULT_MAX_ROOT_FIELDS } from './root-field-limit';
export { maxFieldsRule, maxAliasesRule, DEFAULT_MAX_FIELDS, DEFAULT_MAX_ALIASES } from './operation-field-limit';
export { maxCostRule, operationCost, DEFAULT_MAX_COST, DEFAULT_LIST_SIZE } from './operation-cost';
export type { MaxCostOptions } from './operation-cost';
export { toGraphqlError } from './graphql-errors';
export { OPERATION_EXTENSION } from './root-fields';
export type { SvcErrorListener } from './graphql-errors';
export { pluralize } from './graphql-names';
export { DateTimeScalar, JsonScalar } from './svc-scalars';
