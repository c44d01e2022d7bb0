/** Bootstrap checks of custom operation entries and of route options (`operations.<id>.meta.routes`). */
import { ConfigurationException } from '../errors/configuration-exception';
import { isStandardSchema } from '../schema/body-validators';
import { suggestion } from '../config/did-you-mean';
import type { CustomOperationConfig } from '../config/entity-config';
import { listsRows, readsById, standardOf, type OperationFacts } from '../config/operation-facts';
import { isPlainObject, SETTINGS_KEYS, validateSettings } from '../config/validate-settings';

const CUSTOM_EXTRAS = ['handler', 'kind', 'cardinality', 'enabled', 'policy', 'schema', 'meta', 'realtimeEvent'];
const ROUTE_KEYS = ['method', 'path', 'enabled', 'successStatus'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The standard operation whose per-operation settings rules a custom one follows, found by its shape: a read of many
 * rows follows the standard read of many, a read of one the read by id, a write the write that takes no id.
 */
export function settingsRulesOf(
  config: Pick<CustomOperationConfig, 'kind' | 'cardinality'>,
  facts: ReadonlyMap<string, OperationFacts>,
): OperationFacts {
  if (config.kind !== 'read')
    return standardOf(facts.values(), (standard) => standard.kind === 'write' && !standard.takes.id);
  return standardOf(facts.values(), config.cardinality === 'many' ? listsRows : readsById);
}

export function checkCustomOperationConfig(
  entity: string,
  id: string,
  config: Record<string, unknown>,
  facts: ReadonlyMap<string, OperationFacts>,
): void {
  const path = `operations.${id}`;
  const fail = (at: string, message: string) => {
    throw new ConfigurationException({ entity, path: at, message });
  };
  const caseTwin = [...facts.keys()].find((standard) => standard.toLowerCase() === id.toLowerCase());
  if (caseTwin)
    fail(
      path,
      `differs from the standard operation '${caseTwin}' only by letter case. Rename it or use '${caseTwin}'.`,
    );
  if (!/^[a-z][a-zA-Z0-9]*$/.test(id))
    fail(
      path,
      'is not a camelCase operation id (a lower-case letter, then letters and digits), such as publishBookOne.',
    );
  const suffix = (config as CustomOperationConfig).cardinality === 'many' ? 'Many' : 'One';
  if (!id.endsWith(suffix) || id === suffix.toLowerCase())
    fail(
      path,
      `must spell out its cardinality: a ${suffix === 'Many' ? "cardinality 'many'" : 'single-result'} operation id ends in '${suffix}' (for example publishBook${suffix}).`,
    );
  const allowed = [...SETTINGS_KEYS, ...CUSTOM_EXTRAS];
  for (const key of Object.keys(config)) {
    if (!allowed.includes(key)) fail(`${path}.${key}`, `is not a known key.${suggestion(key, allowed)}`);
  }
  const { kind, cardinality, handler, enabled, policy, realtimeEvent } = config as CustomOperationConfig;
  if (kind !== undefined && kind !== 'read' && kind !== 'write') fail(`${path}.kind`, "must be 'read' or 'write'.");
  if (cardinality !== undefined && cardinality !== 'one' && cardinality !== 'many')
    fail(`${path}.cardinality`, "must be 'one' or 'many'.");
  if (handler !== undefined && typeof handler !== 'function')
    fail(`${path}.handler`, 'must be a function (input, context) => result.');
  if (enabled !== undefined && typeof enabled !== 'boolean') fail(`${path}.enabled`, 'must be true or false.');
  if (policy !== undefined && policy !== false && typeof policy !== 'function')
    fail(`${path}.policy`, 'must be a policy function or false.');
  if (realtimeEvent !== undefined) {
    if (typeof realtimeEvent !== 'string' || realtimeEvent === '')
      fail(`${path}.realtimeEvent`, 'must be an event id (a non-empty string).');
    if (kind === 'read' || cardinality === 'many')
      fail(
        `${path}.realtimeEvent`,
        `is valid only on a write of one row (kind 'write', cardinality 'one'); ${id} is a ${kind ?? 'write'} of ${cardinality ?? 'one'}.`,
      );
  }
  const rules = settingsRulesOf(config, facts);
  validateSettings(config, {
    scope: 'operation',
    entity,
    path,
    operation: rules,
    operationLabel: `${id} (a ${kind ?? 'write'} of ${cardinality ?? 'one'}, which follows ${rules.id})`,
  });
  const ttl = (config.cache as { ttl?: unknown } | false | undefined) || undefined;
  if (ttl?.ttl !== undefined && ttl.ttl !== false)
    fail(
      `${path}.cache.ttl`,
      'would do nothing: the result cache serves findOne and findMany, not custom operations. Remove it.',
    );
  checkRouteOptions(entity, path, config.meta);
  checkCustomSchema(entity, path, kind === 'read' ? ['output', 'query'] : ['input', 'output'], config.schema);
}

function checkCustomSchema(entity: string, path: string, parts: readonly string[], schema: unknown): void {
  if (schema === undefined) return;
  if (!isPlainObject(schema))
    throw new ConfigurationException({ entity, path: `${path}.schema`, message: 'must be an object of parts.' });
  for (const [part, value] of Object.entries(schema)) {
    if (value === undefined) continue;
    if (!parts.includes(part)) {
      throw new ConfigurationException({
        entity,
        path: `${path}.schema.${part}`,
        message: `is not a part of this operation's kind; it has ${parts.join(' and ')}.`,
      });
    }
    const fieldList = part === 'output' && Array.isArray(value);
    if (!fieldList && typeof value !== 'function' && !isStandardSchema(value)) {
      throw new ConfigurationException({
        entity,
        path: `${path}.schema.${part}`,
        message: `takes a schema class or a Standard Schema validator${part === 'output' ? ', or a field list' : ''}.`,
      });
    }
  }
}

/** `meta` is the framework's bag; its `routes` are checked here since every binding reads them. */
export function checkRouteOptions(entity: string, path: string, meta: unknown): void {
  if (meta === undefined) return;
  const fail = (at: string, message: string) => {
    throw new ConfigurationException({ entity, path: `${path}.meta${at}`, message });
  };
  if (!isPlainObject(meta)) fail('', 'must be an object ({ routes }).');
  const decorators = (meta as { decorators?: unknown }).decorators;
  if (decorators !== undefined && (!Array.isArray(decorators) || decorators.some((item) => typeof item !== 'function')))
    fail('.decorators', 'must be an array of decorators, such as [UseGuards(AuthGuard)].');
  checkDocumentationMeta(meta as Record<string, unknown>, fail);
  const routes = (meta as { routes?: unknown }).routes;
  if (routes === undefined) return;
  if (!isPlainObject(routes)) fail('.routes', 'must be an object { method?, path?, enabled?, successStatus? }.');
  const { method, path: routePath, enabled, successStatus } = routes as Record<string, unknown>;
  for (const key of Object.keys(routes as object)) {
    if (!ROUTE_KEYS.includes(key)) fail(`.routes.${key}`, `is not a route option.${suggestion(key, ROUTE_KEYS)}`);
  }
  if (method !== undefined && !METHODS.includes(method as string))
    fail('.routes.method', `must be one of ${METHODS.join(', ')}.`);
  if (routePath !== undefined && (typeof routePath !== 'string' || !/^[\w\-:./]*$/.test(routePath)))
    fail('.routes.path', "must be a path relative to the controller, such as ':id/publish'.");
  if (enabled !== undefined && typeof enabled !== 'boolean') fail('.routes.enabled', 'must be true or false.');
  if (
    successStatus !== undefined &&
    (!Number.isInteger(successStatus) || (successStatus as number) < 200 || (successStatus as number) > 299)
  )
    fail('.routes.successStatus', 'must be a 2xx status code.');
}

/** The OpenAPI keys of `meta`: `summary` and `description` strings, `deprecated` a boolean, `tags` strings. */
function checkDocumentationMeta(meta: Record<string, unknown>, fail: (at: string, message: string) => void): void {
  for (const key of ['summary', 'description'] as const) {
    if (meta[key] !== undefined && typeof meta[key] !== 'string') fail(`.${key}`, 'must be a string.');
  }
  if (meta['deprecated'] !== undefined && typeof meta['deprecated'] !== 'boolean')
    fail('.deprecated', 'must be true or false.');
  const tags = meta['tags'];
  if (tags !== undefined && (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string' || tag === '')))
    fail('.tags', "must be an array of tag names, such as ['Catalog'].");
}
