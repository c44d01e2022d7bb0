/**
 * `computed`: read-only fields the database computes in the same statement as the row, from SQL the app writes and
 * may make depend on the caller (`favorited`, `following`, `favoritesCount`). Resolved once at bootstrap into columns
 * of the entity's description (served on every read surface, never written); rendered per call for its caller.
 */
import { ConfigurationException } from '../errors/configuration-exception';
import type { ColumnMetadata, EntityMetadata } from '../persistence/entity-metadata';
import type { RepositoryAdapter } from '../persistence/repository-adapter';
import {
  columnReference,
  isSqlFragment,
  type ColumnReference,
  type ComputedSelect,
  type SqlFragment,
} from '../persistence/sql-fragment';
import type { SvcContext } from './svc-context';

/** The kinds a computed field may have: how its value is read back and described. */
export type ComputedKind = 'boolean' | 'integer' | 'number' | 'string' | 'datetime';

const KINDS: readonly ComputedKind[] = ['boolean', 'integer', 'number', 'string', 'datetime'];

/** `column('id')`: the row's own column, for a computed field's SQL. */
export type ColumnOf<T = unknown> = (field: unknown extends T ? string : Extract<keyof T, string>) => ColumnReference;

/** One computed field. */
export interface ComputedFieldConfig<T = unknown> {
  readonly kind: ComputedKind;
  /**
   * Its SQL, a scalar expression per row, written with the `sql` tag: `column('id')` names the row's own column and
   * every other interpolated value is bound. Called once per call (and entity) with the caller's context.
   */
  readonly select: (column: ColumnOf<T>, context: SvcContext) => SqlFragment;
  /** Whether the value may be null (a MAX over no rows). @default false */
  readonly nullable?: boolean;
}

/** `computed`, keyed by field name. */
export type ComputedConfig<T = unknown> = { readonly [name: string]: ComputedFieldConfig<T> };

/** A computed field resolved: its name, its SQL and the entity's columns it may name. */
export interface ResolvedComputed {
  readonly name: string;
  readonly kind: ComputedKind;
  readonly select: ComputedFieldConfig['select'];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The computed fields of an entity, checked: a name no column or relation has, a known kind, a `select` function.
 * Each becomes a column of the description that is virtual (never compared by the database in a filter, a sort, a
 * search or an aggregate), generated and never insertable or updatable, so no write slot takes it.
 */
export function resolveComputed(
  entity: string,
  metadata: EntityMetadata,
  config: ComputedConfig | undefined,
): { fields: readonly ResolvedComputed[]; columns: readonly ColumnMetadata[] } {
  if (config === undefined) return { fields: [], columns: [] };
  const fail = (path: string, message: string): never => {
    throw new ConfigurationException({ entity, path, message });
  };
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    fail('computed', 'must be an object of fields: { favorited: { kind, select } }.');
  const fields: ResolvedComputed[] = [];
  const columns: ColumnMetadata[] = [];
  for (const [name, field] of Object.entries(config)) {
    const path = `computed.${name}`;
    if (!NAME.test(name)) fail(path, 'must be a plain identifier (letters, digits and underscores).');
    if (metadata.columns.some((column) => column.property === name))
      fail(path, `is already a column of ${entity}; name the computed field differently.`);
    if (metadata.relations.some((relation) => relation.property === name))
      fail(path, `is already a relation of ${entity}; name the computed field differently.`);
    if (typeof field !== 'object' || field === null) fail(path, 'must be { kind, select }.');
    if (!KINDS.includes(field.kind)) fail(`${path}.kind`, `must be one of ${KINDS.join(', ')}.`);
    if (typeof field.select !== 'function')
      fail(`${path}.select`, "must be a function (column, context) => sql`...` returning the field's SQL.");
    const unknown = Object.keys(field).filter((key) => !['kind', 'select', 'nullable'].includes(key));
    if (unknown.length > 0) fail(`${path}.${unknown[0]}`, 'is not a computed field option (kind, select, nullable).');
    fields.push({ name, kind: field.kind, select: field.select });
    columns.push(
      Object.freeze({
        property: name,
        kind: field.kind,
        nullable: field.nullable === true,
        primary: false,
        generated: true,
        hasDefault: true,
        deleteMarker: false,
        virtual: true,
        computed: true,
        insertable: false as const,
        updatable: false as const,
      }),
    );
  }
  return { fields: Object.freeze(fields), columns: Object.freeze(columns) };
}

/** The adapter as core sees it with computed fields: its description lists them beside its own columns. */
export function adapterWithComputed(adapter: RepositoryAdapter, columns: readonly ColumnMetadata[]): RepositoryAdapter {
  if (columns.length === 0) return adapter;
  const metadata: EntityMetadata = Object.freeze({
    ...adapter.metadata,
    columns: Object.freeze([...adapter.metadata.columns, ...columns]),
  });
  return new Proxy(adapter, {
    get: (target, property, receiver) =>
      property === 'metadata' ? metadata : bound(Reflect.get(target, property, receiver), target),
  });
}

function bound(value: unknown, target: object): unknown {
  return typeof value === 'function' ? (value as Function).bind(target) : value;
}

const rendered = new WeakMap<object, WeakMap<readonly ResolvedComputed[], readonly ComputedSelect[]>>();
const NO_CONTEXT = {};

/**
 * The computed fields' SQL for one caller, rendered once per context and entity: what a read hands the adapter. A
 * `select` that returns no `sql` fragment fails the call as a fault of the app's config.
 */
export function computedSelectFor(
  entity: { readonly name: string; readonly computed: readonly ResolvedComputed[] },
  context: SvcContext | undefined,
): readonly ComputedSelect[] | undefined {
  if (entity.computed.length === 0) return undefined;
  const key = context ?? NO_CONTEXT;
  let byEntity = rendered.get(key);
  if (!byEntity) rendered.set(key, (byEntity = new WeakMap()));
  let selects = byEntity.get(entity.computed);
  if (!selects) {
    const column = (field: unknown): ColumnReference => columnReference(String(field));
    selects = entity.computed.map(({ name, kind, select }) => {
      const fragment = select(column, context ?? {});
      if (!isSqlFragment(fragment))
        throw new Error(`${entity.name}.computed.${name}.select must return the sql\`...\` tag's fragment.`);
      return { name, kind, sql: fragment };
    });
    byEntity.set(entity.computed, selects);
  }
  return selects;
}

/** The adapter for one call: its `findMany` and `findOne` select the computed fields as rendered for the caller. */
export function readsWithComputed<A extends Pick<RepositoryAdapter, 'findMany' | 'findOne'>>(
  adapter: A,
  computed: readonly ComputedSelect[] | undefined,
): A {
  if (!computed) return adapter;
  return new Proxy(adapter, {
    get: (target, property, receiver) => {
      if (property === 'findMany')
        return (args: Parameters<A['findMany']>[0]) => target.findMany({ computed, ...args });
      if (property === 'findOne') return (args: Parameters<A['findOne']>[0]) => target.findOne({ computed, ...args });
      return bound(Reflect.get(target, property, receiver), target);
    },
  });
}
