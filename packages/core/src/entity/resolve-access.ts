/**
 * Access per caller (`access`): each role with a rule gets the entity resolved once more, at bootstrap, from a config
 * narrowed to what that role may read (its select, filter, sort, search, include, aggregate and output lists), then
 * with its write slots narrowed to what it may write and the writes it may not make refused. A call runs against its
 * caller's view (`roleView`), so every allowlist, error, suggestion, projection and schema that reads the entity
 * narrows with it, and nothing per request is recomputed.
 */
import type { AccessConfig, AccessRule, EntityConfig, FieldList } from '../config/entity-config';
import { suggestion } from '../config/did-you-mean';
import { resolveFieldList } from '../config/resolve-field-list';
import { isPlainObject } from '../config/validate-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { WriteSchema } from '../schema/write-schema';
import type { ResolveEntityArgs, ResolvedEntity, ResolvedOperation, RoleFields } from './resolved-entity';

const ACCESS_KEYS = ['role', 'roles'];
const RULE_KEYS = ['read', 'create', 'update', 'delete'];

/** The entity with its role views, each resolved by `resolve` from the narrowed config. */
export function withAccess(
  entity: ResolvedEntity,
  args: ResolveEntityArgs,
  resolve: (args: ResolveEntityArgs) => ResolvedEntity,
): ResolvedEntity {
  const access = args.config.access as AccessConfig | undefined;
  if (access === undefined) return entity;
  const rules = resolveRules(entity, access);
  const views = new Map<string, ResolvedEntity>();
  for (const [role, fields] of rules) {
    const config = narrowedConfig(entity, fields);
    let view: ResolvedEntity;
    try {
      view = resolve({ ...args, config, roleScope: `${entity.cacheScope}~${encodeURIComponent(role)}:` });
    } catch (error) {
      if (!(error instanceof ConfigurationException)) throw error;
      throw new ConfigurationException({
        entity: entity.name,
        path: `access.roles.${role}`,
        message: `narrows the config into one that does not resolve: ${error.message}`,
      });
    }
    views.set(role, narrowView(view, fields));
  }
  return Object.freeze({ ...entity, access: { role: access.role, views, rules } });
}

function resolveRules(entity: ResolvedEntity, access: AccessConfig): Map<string, RoleFields> {
  const fail = (path: string, message: string) => new ConfigurationException({ entity: entity.name, path, message });
  if (!isPlainObject(access)) throw fail('access', 'must be an object { role, roles }.');
  for (const key of Object.keys(access)) {
    if (!ACCESS_KEYS.includes(key)) throw fail(`access.${key}`, `is not an access key.${suggestion(key, ACCESS_KEYS)}`);
  }
  if (typeof access.role !== 'function')
    throw fail('access.role', "must be a function of the context answering the caller's role, or undefined.");
  if (!isPlainObject(access.roles)) throw fail('access.roles', 'must map role names to rules { read, create, ... }.');
  const metadata = entity.metadata;
  // Fields a rule may name: every column (an embedded column by its path or its class's name) and relation.
  const universe = [
    ...new Set([
      ...metadata.columns.map((column) => column.property),
      ...metadata.columns.map((column) => column.property.split('.')[0]!),
      ...metadata.relations.map((relation) => relation.property),
    ]),
  ];
  const rules = new Map<string, RoleFields>();
  for (const [role, rule] of Object.entries(access.roles as Record<string, AccessRule>)) {
    const path = `access.roles.${role}`;
    if (!isPlainObject(rule)) throw fail(path, 'must be an object { read?, create?, update?, delete? }.');
    for (const key of Object.keys(rule)) {
      if (!RULE_KEYS.includes(key)) throw fail(`${path}.${key}`, `is not a rule key.${suggestion(key, RULE_KEYS)}`);
    }
    const names = (part: 'read' | 'create' | 'update'): ReadonlySet<string> | false | undefined => {
      const value = rule[part] as FieldList | 'all' | false | undefined;
      if (value === undefined || value === 'all') return undefined;
      if (value === false) {
        if (part === 'read') throw fail(`${path}.read`, "must be a field list or 'all'.");
        return false;
      }
      return new Set(resolveFieldList({ entity: entity.name, path: `${path}.${part}`, list: value, universe }));
    };
    if (rule.delete !== undefined && typeof rule.delete !== 'boolean')
      throw fail(`${path}.delete`, 'must be true or false.');
    const read = names('read');
    rules.set(role, {
      ...(read ? { read } : {}),
      ...optional('create', names('create')),
      ...optional('update', names('update')),
      delete: rule.delete !== false,
    });
  }
  return rules;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** True when `set` (names, with an embedded column also by its class) lets `field` through; no set lets all. */
function allows(set: ReadonlySet<string> | undefined, field: string): boolean {
  return set === undefined || set.has(field) || set.has(field.split('.')[0]!);
}

/** The entity's config with every read list narrowed to the fields and relations the role reads. */
function narrowedConfig(entity: ResolvedEntity, rule: RoleFields): EntityConfig {
  const { access: _access, ...config } = entity.config as EntityConfig & { access?: unknown };
  const read = rule.read;
  if (!read) return config;
  const readable = (field: string) => allows(read, field.replace(/^-/, ''));
  const columns = entity.metadata.columns.map((column) => column.property);
  const relations = entity.metadata.relations.map((relation) => relation.property);
  const unreadable = [...columns, ...relations].filter((name) => !readable(name));
  const list = <L>(value: L): L => narrowList(value, readable, unreadable) as L;
  const select = config.select ?? {};
  const narrowed: Record<string, unknown> = {
    ...config,
    select: {
      ...select,
      fields: entity.select.fields.filter(readable),
      ...(select.default ? { default: select.default.filter(readable) } : {}),
    },
  };
  if (config.filter?.fields !== undefined) narrowed.filter = { ...config.filter, fields: list(config.filter.fields) };
  if (config.sort)
    narrowed.sort = {
      ...config.sort,
      ...(config.sort.fields !== undefined ? { fields: list(config.sort.fields) } : {}),
      ...(config.sort.default ? { default: config.sort.default.filter(readable) } : {}),
    };
  if (config.search && config.search.fields !== undefined) {
    const fields = list(config.search.fields);
    narrowed.search = Array.isArray(fields) && fields.length === 0 ? false : { ...config.search, fields };
  }
  if (config.include)
    narrowed.include = {
      ...config.include,
      ...(config.include.fields !== undefined ? { fields: list(config.include.fields) } : {}),
      ...(config.include.default ? { default: config.include.default.filter(readable) } : {}),
    };
  if (config.aggregate)
    narrowed.aggregate = {
      ...config.aggregate,
      ...(config.aggregate.fields ? { fields: list(config.aggregate.fields) } : {}),
      ...(config.aggregate.groupBy ? { groupBy: config.aggregate.groupBy.filter(readable) } : {}),
    };
  const output = config.schema?.output;
  if (output)
    narrowed.schema = {
      ...config.schema,
      output: Object.fromEntries(Object.entries(output).map(([slot, value]) => [slot, list(value)])),
    };
  return narrowed as EntityConfig;
}

/** A list of any form (array, `{ exclude }`, `{ fields }`, a map by field) less what the role may not read. */
function narrowList(value: unknown, readable: (field: string) => boolean, unreadable: readonly string[]): unknown {
  if (Array.isArray(value)) return value.filter((name) => typeof name !== 'string' || readable(name));
  if (!isPlainObject(value)) return value; // a class or a validator: its fields are narrowed where it is served
  if (Array.isArray(value.exclude)) return { ...value, exclude: [...new Set([...value.exclude, ...unreadable])] };
  if (Array.isArray(value.fields)) return { ...value, fields: value.fields.filter((name) => readable(String(name))) };
  return Object.fromEntries(Object.entries(value).filter(([field]) => readable(field)));
}

/** The policy of a write a role's rule refuses. */
export const REFUSED_BY_ROLE = (): boolean => false;

/**
 * The view with its write slots narrowed to what the role writes, the writes it may not make refused, and the fields
 * an output class serves narrowed to what it reads (a list was narrowed in the config).
 */
function narrowView(view: ResolvedEntity, rule: RoleFields): ResolvedEntity {
  if (rule.create === undefined && rule.update === undefined && rule.delete && !rule.read) return view;
  const readable = (fields: readonly string[]) => fields.filter((field) => allows(rule.read, field));
  const part = (slot: string) => (slot === 'create' ? rule.create : rule.update);
  const slot = (schema: WriteSchema): WriteSchema => {
    const allowed = part(schema.slot);
    // A write the rule refuses keeps its slot: its policy answers 403 once the body is read.
    if (!allowed) return schema;
    const writes = (field: string) => allowed.has(field.split('.')[0]!);
    const fields = new Map([...schema.fields].filter(([field]) => writes(field)));
    if (schema.slot === 'create') return { ...schema, fields };
    // A replace resets, and requires, only what the role writes: a field it may not write keeps its value.
    const requiredSets = schema.requiredSets
      .map((set) => ({ ...set, sendable: set.sendable.filter(writes) }))
      .filter((set) => set.sendable.length > 0);
    return {
      ...schema,
      fields,
      required: schema.required.filter(writes),
      requiredOneOf: schema.requiredOneOf.filter((pair) => pair.every(writes)),
      requiredSets,
      resets: new Map([...schema.resets].filter(([field]) => writes(field))),
    };
  };
  const operations = new Map<string, ResolvedOperation>();
  for (const [id, operation] of view.operations) {
    const refused = refusedBy(operation, rule);
    operations.set(id, {
      ...operation,
      ...(operation.input ? { input: slot(operation.input) } : {}),
      ...(operation.outputFields ? { outputFields: readable(operation.outputFields) } : {}),
      ...(operation.list?.outputFields
        ? { list: { ...operation.list, outputFields: readable(operation.list.outputFields) } }
        : {}),
      ...(operation.custom && rule.read
        ? {
            custom: {
              ...operation.custom,
              ...(operation.custom.outputClassFields
                ? { outputClassFields: readable(operation.custom.outputClassFields) }
                : {}),
              ...(operation.custom.outputList ? { outputList: readable(operation.custom.outputList) } : {}),
            },
          }
        : {}),
      ...(refused ? { policy: REFUSED_BY_ROLE } : {}),
    });
  }
  const update = rule.update;
  return Object.freeze({
    ...view,
    operations,
    ...(view.listOperation ? { listOperation: operations.get(view.listOperation.id)! } : {}),
    ...(view.itemOperation ? { itemOperation: operations.get(view.itemOperation.id)! } : {}),
    output: { fields: readable(view.output.fields) },
    ...(rule.update === false ? { refusesUpdates: true } : {}),
    ...(rule.read ? { readsLess: true } : {}),
    input: { create: slot(view.input.create), update: slot(view.input.update), patch: slot(view.input.patch) },
    writableMembers: update
      ? new Set([...view.writableMembers].filter((name) => update.has(name)))
      : view.writableMembers,
    nestedWritable: {
      ...(rule.create !== undefined ? { create: nestedIn(view, rule.create) } : {}),
      ...(rule.update !== undefined ? { update: nestedIn(view, rule.update) } : {}),
    },
  });
}

/** Whether the rule refuses this standard write: a create, an update (a relation member write too), or a delete. */
function refusedBy(operation: ResolvedOperation, rule: RoleFields): boolean {
  if (operation.relationWrite) return operation.relationWrite.action !== 'list' && rule.update === false;
  const facts = operation.facts;
  if (!facts || facts.kind !== 'write') return false;
  if (facts.takes.body === 'create') return rule.create === false;
  if (facts.takes.body === 'update' || facts.takes.body === 'patch') return rule.update === false;
  return !rule.delete;
}

/** The nested relations a rule's field list names (none for a write it refuses). */
function nestedIn(view: ResolvedEntity, allowed: ReadonlySet<string> | false): ReadonlySet<string> {
  return new Set(allowed ? [...view.nested.keys()].filter((name) => allowed.has(name)) : []);
}
