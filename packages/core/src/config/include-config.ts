/** `include` and `relations.<name>.read`: which relations a read may embed, how deep, and how each is loaded. */
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';
import { suggestion } from './did-you-mean';
import type { IncludeConfigInput, RelationConfigInput, RelationReadStrategy } from './entity-config';

export type { IncludeConfigInput, RelationConfigInput, RelationReadStrategy };
import { resolveFieldList } from './resolve-field-list';
import { isPlainObject } from './validate-settings';

export interface IncludableRelation {
  readonly relation: RelationMetadata;
  /** `key`: an object holding only the target key, read from the parent's foreign key; otherwise a batched load. */
  readonly strategy: 'batch' | 'key';
  readonly maxDepth: number;
  /** `relations.<name>.values`: REST serves the relation as this field of each row. */
  readonly values?: string;
}

export interface IncludeConfig {
  readonly relations: ReadonlyMap<string, IncludableRelation>;
  readonly default: readonly string[];
  readonly apply?: IncludeConfigInput['apply'];
  readonly maxDepth: number;
  readonly maxNodes: number;
}

const LIMIT_DEFAULTS = { maxDepth: 2, maxNodes: 10 };
const STRATEGIES: readonly RelationReadStrategy[] = ['auto', 'join', 'batch', 'key'];

export function buildIncludeConfig(args: {
  entity: string;
  metadata: EntityMetadata;
  include?: IncludeConfigInput;
  relations?: { readonly [relation: string]: RelationConfigInput | undefined };
}): IncludeConfig {
  const { entity, metadata, include } = args;
  const byName = new Map(metadata.relations.map((relation) => [relation.property, relation]));
  const limits = readLimits(entity, include?.limits);
  const tuned = readRelationsBlock(entity, byName, args.relations);
  const names = resolveFieldList({
    entity,
    path: 'include.fields',
    list: include?.fields,
    universe: [...byName.keys()],
    unset: [],
  });
  const relations = new Map<string, IncludableRelation>();
  for (const name of names) {
    const relation = byName.get(name)!;
    const read = tuned.get(name);
    const values = valuesOf(entity, relation, args.relations?.[name]);
    relations.set(name, {
      relation,
      strategy: read?.strategy === 'key' ? 'key' : 'batch',
      maxDepth: read?.maxDepth ?? limits.maxDepth,
      ...(values ? { values } : {}),
    });
  }
  const defaults = include?.default ?? [];
  if (!Array.isArray(defaults))
    throw new ConfigurationException({
      entity,
      path: 'include.default',
      message: 'must be an array of include paths.',
    });
  for (const path of defaults) {
    const first = String(path).split('.')[0]!;
    if (!relations.has(first)) {
      throw new ConfigurationException({
        entity,
        path: 'include.default',
        message: `'${path}' is not on include.fields.${suggestion(first, relations.keys())}`,
      });
    }
  }
  if (include?.apply !== undefined && typeof include.apply !== 'function') {
    throw new ConfigurationException({
      entity,
      path: 'include.apply',
      message: 'must be a function (args) => include paths.',
    });
  }
  return { relations, default: defaults, apply: include?.apply, ...limits };
}

function readLimits(entity: string, limits: unknown): { maxDepth: number; maxNodes: number } {
  const out = { ...LIMIT_DEFAULTS };
  if (limits === undefined) return out;
  if (!isPlainObject(limits))
    throw new ConfigurationException({
      entity,
      path: 'include.limits',
      message: 'must be an object { maxDepth?, maxNodes? }.',
    });
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in LIMIT_DEFAULTS)) {
      throw new ConfigurationException({
        entity,
        path: `include.limits.${key}`,
        message: `is not a known key.${suggestion(key, Object.keys(LIMIT_DEFAULTS))}`,
      });
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new ConfigurationException({
        entity,
        path: `include.limits.${key}`,
        message: 'must be a positive integer.',
      });
    }
    out[key as keyof typeof LIMIT_DEFAULTS] = value;
  }
  return out;
}

function readRelationsBlock(
  entity: string,
  byName: ReadonlyMap<string, RelationMetadata>,
  block: { readonly [relation: string]: RelationConfigInput | undefined } | undefined,
): Map<string, { strategy?: RelationReadStrategy; maxDepth?: number }> {
  const out = new Map<string, { strategy?: RelationReadStrategy; maxDepth?: number }>();
  if (block === undefined) return out;
  if (!isPlainObject(block))
    throw new ConfigurationException({
      entity,
      path: 'relations',
      message: 'must be an object keyed by relation name.',
    });
  for (const [name, entry] of Object.entries(block)) {
    const path = `relations.${name}`;
    const relation = byName.get(name);
    if (!relation)
      throw new ConfigurationException({
        entity,
        path,
        message: `'${name}' is not a relation of ${entity}.${suggestion(name, byName.keys())}`,
      });
    if (!isPlainObject(entry) || Object.keys(entry).length === 0) {
      throw new ConfigurationException({
        entity,
        path,
        message: 'tunes nothing. Give it read settings, or remove the entry.',
      });
    }
    for (const key of Object.keys(entry)) {
      // `write` (array writes of a to-many relation) is read by buildArrayRelations; `values` where it is included.
      if (key === 'write' || key === 'values') continue;
      if (key !== 'read')
        throw new ConfigurationException({
          entity,
          path: `${path}.${key}`,
          message: `is not a known key.${suggestion(key, ['read', 'write', 'values'])}`,
        });
    }
    if (entry.read !== undefined || !('write' in entry || 'values' in entry))
      out.set(name, readRead(entity, path, relation, entry.read));
  }
  return out;
}

function readRead(
  entity: string,
  path: string,
  relation: RelationMetadata,
  read: unknown,
): { strategy?: RelationReadStrategy; maxDepth?: number } {
  if (!isPlainObject(read) || Object.keys(read).length === 0) {
    throw new ConfigurationException({
      entity,
      path: `${path}.read`,
      message: 'must be an object { maxDepth?, strategy? } that sets something.',
    });
  }
  for (const key of Object.keys(read)) {
    if (key !== 'maxDepth' && key !== 'strategy') {
      throw new ConfigurationException({
        entity,
        path: `${path}.read.${key}`,
        message: `is not a known key.${suggestion(key, ['maxDepth', 'strategy'])}`,
      });
    }
  }
  const { strategy, maxDepth } = read as { strategy?: unknown; maxDepth?: unknown };
  if (maxDepth !== undefined && (typeof maxDepth !== 'number' || !Number.isInteger(maxDepth) || maxDepth < 1)) {
    throw new ConfigurationException({ entity, path: `${path}.read.maxDepth`, message: 'must be a positive integer.' });
  }
  if (strategy !== undefined && !STRATEGIES.includes(strategy as RelationReadStrategy)) {
    throw new ConfigurationException({
      entity,
      path: `${path}.read.strategy`,
      message: `must be one of ${STRATEGIES.join(', ')}.${suggestion(String(strategy), STRATEGIES)}`,
    });
  }
  if (strategy === 'key' && !(isToOne(relation) && relation.owning)) {
    throw new ConfigurationException({
      entity,
      path: `${path}.read.strategy`,
      message: `'key' needs an owning-side to-one relation, and '${relation.property}' is ${relation.kind}${relation.owning ? '' : ' (inverse side)'}. Use 'batch'.`,
    });
  }
  if (strategy === 'join' && !isToOne(relation)) {
    throw new ConfigurationException({
      entity,
      path: `${path}.read.strategy`,
      message: `'join' on the to-many relation '${relation.property}' would multiply parent rows and break paging. Use 'batch' or 'auto'.`,
    });
  }
  return { strategy: strategy as RelationReadStrategy | undefined, maxDepth: maxDepth as number | undefined };
}

function isToOne(relation: RelationMetadata): boolean {
  return relation.kind === 'many-to-one' || relation.kind === 'one-to-one';
}

/** `relations.<name>.values`: a field name, on a to-many relation. */
function valuesOf(entity: string, relation: RelationMetadata, entry: RelationConfigInput | undefined) {
  const values = isPlainObject(entry) ? entry.values : undefined;
  if (values === undefined) return undefined;
  const toMany = relation.kind === 'one-to-many' || relation.kind === 'many-to-many';
  if (typeof values !== 'string' || values === '' || !toMany)
    throw new ConfigurationException({
      entity,
      path: `relations.${relation.property}.values`,
      message: "must name one field of the related rows (a to-many relation's), for example 'name'.",
    });
  return values;
}
