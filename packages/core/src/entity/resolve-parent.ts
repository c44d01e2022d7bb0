/**
 * `parent`: an entity served as a child collection under a row of another (`/articles/:slug/comments`). The route's
 * parameter names the parent row (looked up through the parent entity's own scope: one the caller may not see answers
 * 404 naming the parent); every operation then reaches only that parent's children, and a create makes its row one.
 * Resolved at bootstrap into the entity's `filter.apply` and `set.create`, so every path that asks them (reads, the
 * guards and read-backs of writes, batches, references) keeps to the parent.
 */
import type { EntityConfig, FilterConfig, SetFunction } from '../config/entity-config';
import { ConfigurationException } from '../errors/configuration-exception';
import { NotFoundException } from '../errors/svc-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import { RESOLVED_PART } from '../query/resolve-apply-filter';
import type { SvcContext } from '../config/svc-context';
import { visibleRows } from '../query/visible-rows';
import { coerceFilterValue } from '../schema/coerce-filter-value';
import type { ForcedValues } from '../schema/forced-values';
import type { ResolvedEntity } from './resolved-entity';

/** `parent` in an entity config. */
export interface ParentConfig {
  /** The owning to-one relation to the parent (`article`). */
  readonly relation: string;
  /** The route parameter that names the parent (`slug` in `articles/:slug/comments`). */
  readonly param: string;
  /** The parent's column the parameter holds. @default the parent's primary key */
  readonly field?: string;
}

type Apply = NonNullable<FilterConfig['apply']>;

/** The parent's key for one request, looked up once per context: undefined where no route parameter names one. */
const parentKeys = new WeakMap<object, Promise<unknown>>();

/** The entity whose REST route a request is, as the binding runs it (`markRoute`). */
const routeTargets = new WeakMap<object, Function>();

/** Called by the engine for a REST call: the request is a route of `target`'s, whose parameters are its own. */
export function markRoute(request: unknown, target: Function): void {
  if (typeof request === 'object' && request !== null) routeTargets.set(request, target);
}

export function resolveParent(
  entity: string,
  childTarget: Function,
  metadata: EntityMetadata,
  config: EntityConfig,
  peers: ((target: Function) => ResolvedEntity | undefined) | undefined,
  forced: ForcedValues,
): { filterApply?: Apply; forced: ForcedValues } {
  const parent = config.parent as ParentConfig | undefined;
  if (parent === undefined) return { filterApply: config.filter?.apply, forced };
  const fail = (path: string, message: string): never => {
    throw new ConfigurationException({ entity, path: `parent.${path}`, message });
  };
  const relation = metadata.relations.find((candidate) => candidate.property === parent.relation);
  if (!relation) fail('relation', `'${String(parent.relation)}' is not a relation of ${entity}.`);
  if (relation!.kind !== 'many-to-one' && !(relation!.kind === 'one-to-one' && relation!.joinColumns.length > 0))
    fail(
      'relation',
      `'${parent.relation}' must be an owning to-one relation (many-to-one), the child's link to its parent.`,
    );
  if (typeof parent.param !== 'string' || !/^\w+$/.test(parent.param))
    fail('param', 'must name the route parameter that holds the parent (`slug` in `articles/:slug/comments`).');
  const target = relation!.target;
  const parentEntity = (): ResolvedEntity => {
    const served = peers?.(target);
    if (!served)
      throw new ConfigurationException({
        entity,
        path: 'parent.relation',
        message: `${relation!.targetName} is served by no controller or service of this app; the parent must be.`,
      });
    return served;
  };
  const keyOf = (context: SvcContext): Promise<unknown> => {
    // Only the child's own route names its parent: a parameter of that name on another entity's route (an include
    // under `/tags/:slug`) is that route's.
    const request = context.request as { params?: Record<string, unknown> } | undefined;
    const value = request && routeTargets.get(request) === childTarget ? request.params?.[parent.param] : undefined;
    if (value === undefined) return Promise.resolve(undefined);
    let known = parentKeys.get(context);
    if (!known) {
      known = lookUp(parentEntity(), parent.field, value, context);
      parentKeys.set(context, known);
    }
    return known;
  };
  const own = config.filter?.apply;
  const filterApply: Apply = async (args) => {
    const key = await keyOf(args.context);
    const mine = own ? await own(args) : undefined;
    const pk = parentEntity().metadata.primaryKeys[0]!;
    if (key === undefined) {
      // No parent named (GraphQL, MCP, code, an include): the children of parents the caller may see, no others.
      const seen = await visibleRows(parentEntity(), { operation: 'findMany', context: args.context });
      if (!seen) return mine;
      const reachable: FilterNode = {
        kind: 'condition',
        field: `${parent.relation}.${pk}`,
        operator: 'isNotNull',
        value: true,
        scope: seen,
      };
      return { [RESOLVED_PART]: reachable, expression: mine } as unknown as ReturnType<Apply>;
    }
    const scope = { [`${parent.relation}.${pk}`]: { eq: key } };
    return (mine ? { and: [mine, scope] } : scope) as ReturnType<Apply>;
  };
  const withParent =
    (set: SetFunction | undefined): SetFunction =>
    async (args) => {
      const values = set ? await set(args) : undefined;
      const key = await keyOf(args.context);
      if (key === undefined) return values;
      const pk = parentEntity().metadata.primaryKeys[0]!;
      return { ...values, [parent.relation]: { [pk]: key } };
    };
  return { filterApply, forced: { ...forced, create: withParent(forced.create) } };
}

/** The key of the parent row the parameter names, inside the parent's scope for a read; 404 naming it otherwise. */
async function lookUp(parent: ResolvedEntity, field: string | undefined, value: unknown, context: SvcContext) {
  const pk = parent.metadata.primaryKeys[0]!;
  const column = field ?? pk;
  const scope = await visibleRows(parent, { operation: 'findOne', context });
  // The parameter read as a filter reads it (a bigint exactly, `1e3` no integer); a value the column cannot hold names
  // no parent.
  const coerced = coerceFilterValue(
    parent.metadata.columns.find((candidate) => candidate.property === column)!,
    value,
  );
  if (!coerced.ok) throw new NotFoundException(parent.name, String(value));
  const { rows } = await parent.adapter.findMany({
    where: andFilters(scope, { kind: 'condition', field: column, operator: 'eq', value: coerced.value }),
    sort: [],
    limit: 1,
    count: false,
    view: parent.softDeleteOnReads ? 'live' : 'all',
  });
  if (rows.length === 0) throw new NotFoundException(parent.name, String(value));
  return rows[0]![pk];
}
