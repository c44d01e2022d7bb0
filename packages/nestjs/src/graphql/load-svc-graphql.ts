/**
 * `@svc/graphql` is an optional peer of the Nest binding: it is loaded only when `graphql` is switched on, so an app
 * without GraphQL installed boots without it.
 */
import type { buildSvcSchema, createSvcGraphqlHandler } from '@svc/graphql';
import { ConfigurationException } from '@svc/core';

/** What the Nest binding uses of `@svc/graphql`. */
export interface SvcGraphqlModule {
  readonly buildSvcSchema: typeof buildSvcSchema;
  readonly createSvcGraphqlHandler: typeof createSvcGraphqlHandler;
}

const PACKAGE = '@svc/graphql';

export function loadSvcGraphql(): SvcGraphqlModule {
  try {
    // Loaded by name at run time, never by a static import, so the package stays optional.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(PACKAGE) as SvcGraphqlModule;
  } catch (error) {
    const missing = (error as { code?: string }).code === 'MODULE_NOT_FOUND';
    if (!missing) throw error;
    throw new ConfigurationException({
      path: 'SvcModule.forRoot({ graphql })',
      message: `GraphQL is switched on, but ${PACKAGE} (or one of its peers, graphql and graphql-http) is not installed. Run pnpm add ${PACKAGE} graphql graphql-http, or leave graphql off.`,
    });
  }
}
