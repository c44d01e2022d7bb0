/**
 * The route table of an entity config: every route the HTTP binding may serve and the description API reports, derived
 * from the config alone (routes are declared before the adapter's metadata is known), in match order. The binding
 * maps, at boot, only the routes the resolved entity serves.
 */
import type { CustomOperationConfig, EntityConfig, RouteOptions } from '../config/entity-config';
import { listsRows, type HttpMethod } from '../config/operation-facts';
import type { OperationDefinition } from './operation-definition';
import { definitionOf, STANDARD_OPERATIONS } from './operation-registry';
import { subscribe } from './definitions/subscribe';

export type { HttpMethod };

/** The realtime subscription route of an entity whose `realtime` is on (Server-Sent Events). */
export const EVENTS_PATH = subscribe.route.path;

/** One route of an entity: the operation behind it, its verb and path, and what it reads off the request. */
export interface SvcRoute {
  readonly operation: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly body: boolean;
  readonly query: boolean;
  /** Relation removals: the member ids come from `?ids=1,2` or from the `:memberId` segment. */
  readonly members?: 'query' | 'param';
  /** The body may also be an RFC 6902 document (`application/json-patch+json`). */
  readonly jsonPatch?: boolean;
  /** The realtime subscription (`GET /events`): a stream, served when the entity's realtime is on. */
  readonly stream?: boolean;
  /** The subscription's: the operation whose guards it carries (the list's). */
  readonly guardedAs?: string;
}

/**
 * The routes of an entity config, custom operations first (they are matched before the standard table, and one that
 * reproduces a standard route's shape takes it), then the standard ones, specific paths before `:id`.
 */
export function routeTableOf(config: EntityConfig): SvcRoute[] {
  const param = config.identifier?.field ?? 'id';
  const resolvePath = (path: string) => path.replace(/(^|\/):id(?=\/|$)/, `$1:${param}`);
  const customs: SvcRoute[] = [];
  for (const [id, entry] of Object.entries(config.operations ?? {})) {
    if (definitionOf(id) || entry === false || entry === undefined) continue;
    const custom = (entry === true ? {} : entry) as CustomOperationConfig;
    const routes = custom.meta?.routes;
    if (custom.enabled === false || routes?.enabled === false) continue;
    const read = custom.kind === 'read';
    customs.push({
      operation: id,
      method: routes?.method ?? 'POST',
      path: resolvePath(routes?.path ?? id),
      body: !read,
      query: read,
    });
  }
  const standard = routedOperations(config)
    .filter((definition) => routeOptionsOf(config, definition.id)?.enabled !== false)
    .map((definition): SvcRoute => {
      const routes = routeOptionsOf(config, definition.id);
      return {
        operation: definition.id,
        method: routes?.method ?? definition.route.method,
        path: resolvePath(routes?.path ?? definition.route.path),
        body: definition.takes.body !== 'none',
        query: definition.takes.query !== 'none',
        ...(definition.jsonPatch ? { jsonPatch: true } : {}),
      };
    });
  const list = STANDARD_OPERATIONS.find(listsRows);
  // The subscription route is always in the table: whether realtime is on is known once the settings chain resolves,
  // and a binding maps the route only where events are served (elsewhere the path is the read by id's).
  standard.push({
    operation: subscribe.id,
    method: subscribe.route.method,
    path: subscribe.route.path,
    body: false,
    query: true,
    stream: true,
    ...(list ? { guardedAs: list.id } : {}),
  });
  standard.sort((a, b) => specificity(b.path) - specificity(a.path));
  // Among themselves, custom routes go specific first too, so a custom `:id` does not swallow a custom `short`.
  const bySpecificity = (a: SvcRoute, b: SvcRoute) => specificity(b.path) - specificity(a.path);
  return [...customs.sort(bySpecificity), ...relationRoutes(config, resolvePath), ...standard];
}

/** `relations.<name>.write`: `replace` adds PUT /:id/<name>; `resource` adds GET, POST, PUT and DELETE there. */
function relationRoutes(config: EntityConfig, resolvePath: (path: string) => string): SvcRoute[] {
  const out: SvcRoute[] = [];
  for (const [name, entry] of Object.entries(config.relations ?? {})) {
    const strategy = entry?.write?.strategy;
    if (strategy !== 'replace' && strategy !== 'resource') continue;
    const path = resolvePath(`:id/${name}`);
    const route = (operation: string, method: HttpMethod, extra: Partial<SvcRoute> = {}): SvcRoute => ({
      operation: `${name}:${operation}`,
      method,
      path,
      body: method === 'POST' || method === 'PUT',
      query: false,
      ...extra,
    });
    out.push(route('replace', 'PUT'));
    if (strategy === 'resource') {
      out.push(
        route('remove', 'DELETE', { path: `${path}/:memberId`, members: 'param' }),
        route('list', 'GET', { query: true }),
        route('add', 'POST'),
        route('remove', 'DELETE', { members: 'query' }),
      );
    }
  }
  return out;
}

/** Deeper paths first, then fewer parameters: `:id/restore` before `:id`, and `all` before `:id`. */
function specificity(path: string): number {
  const segments = path.split('/');
  return segments.length * 100 - segments.filter((segment) => segment.startsWith(':')).length;
}

function routeOptionsOf(config: EntityConfig, id: OperationDefinition['id']): RouteOptions | undefined {
  const entry = config.operations?.[id];
  return typeof entry === 'object' ? entry.meta?.routes : undefined;
}

/**
 * Operations that get a route: every one named on in the entity's `operations` map, else all of them; an opt-in one
 * (a batch write) where the config turns it on.
 */
function routedOperations(config: EntityConfig): OperationDefinition[] {
  return STANDARD_OPERATIONS.filter(({ id, optIn }) => {
    if (optIn) return optIn.on(config);
    if (config.operations === undefined) return true;
    const value = config.operations[id];
    return value !== undefined && value !== false;
  });
}
