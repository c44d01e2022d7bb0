/** What `SvcModule.forRoot` takes: Svc's options, plus how the module fits into the app's own error handling. */
import type { SvcOptions } from '@svc/core';

export interface SvcModuleOptions extends SvcOptions {
  /**
   * Which errors answer as `application/problem+json`: `'svc'` for Svc's routes only (the app's other routes keep
   * Nest's own error format), `'all'` for every route of the app. @default 'svc'
   */
  readonly problemDetails?: 'svc' | 'all';
}

/** The options `createSvc` takes: the module's own keys left out. */
export function svcOptionsOf(options: SvcModuleOptions): SvcOptions {
  const { problemDetails: _problemDetails, ...svc } = options;
  return svc;
}
