/** Public API of @svc/graphql. */
export { buildSvcSchema } from './build-svc-schema';
export type { SvcSchemaOptions } from './build-svc-schema';
export { createSvcGraphqlHandler } from './svc-graphql-handler';
export type { SvcGraphqlHandler, SvcGraphqlHandlerOptions } from './svc-graphql-handler';
export { maxRootFieldsRule, DEFAULT_MAX_ROOT_FIELDS } from './root-field-limit';
export { maxFieldsRule, DEFAULT_MAX_FIELDS } from './operation-field-limit';
export { toGraphqlError } from './graphql-errors';
export type { SvcErrorListener } from './graphql-errors';
export { pluralize } from './graphql-names';
export { DateTimeScalar, JsonScalar } from './svc-scalars';
