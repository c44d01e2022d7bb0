/** The read-side configuration every read of one entity shares: select, search, include, the server filter, outputs. */
import type { ApplyArgs } from '../config/entity-config';
import { buildIncludeConfig, type IncludeConfig } from '../config/include-config';
import type { RelatedMetadata } from '../config/resolve-field-path';
import { ConfigurationException } from '../errors/configuration-exception';
import type { QueryErrors } from '../errors/query-errors';
import type { EntityMetadata } from '../persistence/entity-metadata';
import { buildFilterAllowlist } from '../query/build-list-query-config';
import type { FilterAllowlist } from '../query/filter-allowlist';
import type { ListQueryConfig } from '../query/list-query-config';
import { buildSearchConfig, type SearchConfig } from '../query/search-config';
import { buildSelectConfig, type SelectConfig } from '../query/select-config';
import { visibleRows } from '../query/visible-rows';
import { mayList, roleView } from '../query/related-reach';
import { QueryInvalidException } from '../errors/svc-exception';
import { suggestion } from '../config/did-you-mean';
import type { FilterNode } from '../persistence/query-ast';
import { buildOutputSlot } from '../schema/output-slots';
import { resolveInclude, type IncludeRequest } from './resolve-include';
import type { ResolveEntityArgs, ResolvedEntity } from './resolved-entity';

/** The read-side configuration every read operation of the entity shares. */
export interface ReadShape {
  readonly select: SelectConfig;
  readonly search?: SearchConfig;
  readonly include: IncludeConfig;
  readonly serverFilter: FilterAllowlist;
  readonly outputItem?: readonly string[];
  readonly outputList?: readonly string[];
  readonly includer?: ListQueryConfig['include'];
  readonly relationScope: NonNullable<ListQueryConfig['relationScope']>;
  /** Another entity served by the same instance. */
  readonly peer: (target: Function) => ResolvedEntity | undefined;
}

export function resolveReadShape(args: {
  name: string;
  args: ResolveEntityArgs;
  metadata: EntityMetadata;
  related?: RelatedMetadata;
}): ReadShape {
  const { name, metadata, related } = args;
  const { config, adapter } = args.args;
  const serverFilter = withParentPath(
    buildFilterAllowlist({ entity: name, metadata, filter: { limits: config.filter?.limits } }),
    buildFilterAllowlist({
      entity: name,
      metadata,
      related,
      filter: { fields: parentPath(config, metadata, related) },
    }),
  );
  const maxLength = serverFilter.limits.maxLikePatternLength;
  const include = buildIncludeConfig({ entity: name, metadata, include: config.include, relations: config.relations });
  if (include.relations.size > 0 && !adapter.loadRelation) {
    throw new ConfigurationException({
      entity: name,
      path: 'include',
      message: 'needs a repository adapter that can load relations (loadRelation).',
    });
  }
  const select = buildSelectConfig(name, metadata, config.select);
  const peer = (other: Function) => args.args.peers?.(other);
  return {
    peer,
    select,
    search: buildSearchConfig({ related, entity: name, metadata, input: config.search, maxLength, select }),
    include,
    serverFilter,
    outputItem: buildOutputSlot(name, metadata, 'item', config.schema?.output?.item),
    outputList: buildOutputSlot(name, metadata, 'list', config.schema?.output?.list),
    includer:
      include.relations.size > 0
        ? (request: IncludeRequest, errors: QueryErrors, applyArgs: ApplyArgs) =>
            resolveInclude({ name, include, select, peer }, request, errors, applyArgs)
        : undefined,
    relationScope: async (
      relationName: string,
      applyArgs: ApplyArgs,
      path?: string,
      param: PathParam = 'filter',
      named = true,
    ) => {
      const relation = metadata.relations.find((candidate) => candidate.property === relationName);
      const served = relation ? peer(relation.target) : undefined;
      if (!served) return undefined;
      const view = roleView(served, applyArgs.context);
      if (path !== undefined && view !== served && !readsPath(served, view, relationName, path)) {
        // The client's path is refused as unknown; a path the server's config adds matches (and orders) nothing.
        if (named) refuseUnreadablePath(view, relationName, path, param);
        return noRowOf(served.metadata);
      }
      // A related entity whose policy refuses this caller its rows lends none to a condition or a sort key.
      if (!(await mayList(served, applyArgs.context))) return noRowOf(served.metadata);
      return visibleRows(served, applyArgs);
    },
  };
}

/** A condition no row meets: its primary key is null. */
function noRowOf(metadata: EntityMetadata): FilterNode {
  return { kind: 'condition', field: metadata.primaryKeys[0]!, operator: 'isNull', value: true };
}

/** Where a relation path was named, and the code and words of its refusal there. */
type PathParam = 'filter' | 'sort' | 'groupBy';
const REFUSALS: Record<PathParam, readonly [code: string, what: string]> = {
  filter: ['field_not_filterable', 'a filterable field'],
  sort: ['field_not_sortable', 'a sortable field'],
  groupBy: ['field_not_groupable', 'a field this resource groups by'],
};

/** A relation path to a field the caller's role does not read on the related entity: refused as an unknown field. */
/** Whether the caller's role reads the related field a path names (a field everyone may not read is not its matter). */
function readsPath(served: ResolvedEntity, view: ResolvedEntity, relation: string, path: string): boolean {
  const field = path.slice(relation.length + 1);
  return view.select.fieldSet.has(field) || !served.select.fieldSet.has(field);
}

function refuseUnreadablePath(view: ResolvedEntity, relation: string, path: string, param: PathParam): void {
  const readable = view.select.fields.map((name) => `${relation}.${name}`);
  const [code, what] = REFUSALS[param];
  throw new QueryInvalidException([{ param, code, detail: `'${path}' is not ${what}.${suggestion(path, readable)}` }]);
}

/** A child collection's link to its parent by key (`shelf.id`), which its `filter.apply` compares: none otherwise. */
function parentPath(
  config: ResolveEntityArgs['config'],
  metadata: EntityMetadata,
  related: RelatedMetadata | undefined,
): string[] {
  const relation = metadata.relations.find((candidate) => candidate.property === config.parent?.relation);
  const key = relation && related?.(relation.target).primaryKeys[0];
  return relation && key ? [`${relation.property}.${key}`] : [];
}

function withParentPath(own: FilterAllowlist, parent: FilterAllowlist): FilterAllowlist {
  if (parent.fields.size === 0) return own;
  return { ...own, fields: new Map([...own.fields, ...parent.fields]) };
}
