/**
 * The metadata keys Nest's decorators write and Svc reads back. Nest 12 lists its constants among its internals
 * (`@nestjs/common/internal`), not its public API, so Svc names the keys itself; they are the same on Nest 11 and
 * 12, and `test/e2e/platform-gate.e2e.test.ts` holds them to the installed Nest's own constants.
 */

/** Where `@Controller(path)` keeps the controller's path (or paths). */
export const CONTROLLER_PATH_METADATA = 'path';

/** Where a route decorator (`@Get(path)`, `RequestMapping`) keeps a handler's path; Nest maps only methods with one. */
export const ROUTE_PATH_METADATA = 'path';

/** Where `@UseGuards(...)` keeps a class's or a handler's guards. */
export const GUARDS_METADATA = '__guards__';

/** Where `@UseFilters(...)` keeps a class's or a handler's exception filters. */
export const EXCEPTION_FILTERS_METADATA = '__exceptionFilters__';

/** Where `@Catch(...)` keeps the exception types a filter catches (none: every exception). */
export const FILTER_CATCH_EXCEPTIONS = '__filterCatchExceptions__';
