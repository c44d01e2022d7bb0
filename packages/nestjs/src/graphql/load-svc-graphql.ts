/**
 * `@svc/graphql` is an optional peer of the Nest binding: it is loaded only when `graphql` is switched on, so an app
 * without GraphQL installed boots without it.
 */
import type { buildSvcSchema, createSvcGraphqlHandler, toGraphqlError } from '@svc/graphql';
import { requireOptionalPeer } from '../optional-peer';

/** What the Nest binding uses of `@svc/graphql`. */
export interface SvcGraphqlModule {
  readonly buildSvcSchema: typeof buildSvcSchema;
  readonly createSvcGraphqlHandler: typeof createSvcGraphqlHandler;
  readonly toGraphqlError: typeof toGraphqlError;
}

const PACKAGE = '@svc/graphql';

export function loadSvcGraphql(): SvcGraphqlModule {
  return requireOptionalPeer<SvcGraphqlModule>(PACKAGE, {
    path: 'SvcModule.forRoot({ graphql })',
    message: `GraphQL is switched on, but ${PACKAGE} (or one of its peers, graphql and graphql-http) is not installed. Run pnpm add ${PACKAGE} graphql graphql-http, or leave graphql off.`,
  });
}
