/** `describeEntity`: the description of an entity, derived once from its resolved config, then frozen. */
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import type { FilterOperator } from '../persistence/query-ast';
import { OPERAND_SHAPES, OPERATOR_HELP } from '../query/operand-shapes';
import { routeTableOf, type SvcRoute } from '../operations/route-table';
import { pluralOf, withArticle as withArticleOf, type WordingSubject } from '../config/operation-facts';
import type { WriteSchema } from '../schema/write-schema';
import type { ListQueryConfig } from '../query/list-query-config';
import { realtimeEventsOf } from '../operations/realtime-subscription';
import { EVENTS_PATH } from '../operations/route-table';
import { columnJsonSchema } from './json-schema';
import {
  embeddedRowJsonSchema,
  EntitySchemas,
  writeBodyJsonSchema,
  type DescribedEntity,
  type PeerSchemas,
} from './entity-schemas';
import { nestedWritesOf, withNestedSlot } from './nested-write-schemas';
import { operationSchemasOf } from './operation-schemas';
import { REFUSED_BY_ROLE } from '../entity/resolve-access';
import { roleView } from '../query/related-reach';
import type { SvcContext } from '../config/svc-context';
import type { EntityConfig, OperationMeta } from '../config/entity-config';
import { MEASURE_FUNCTIONS, type ResolvedAggregate } from '../config/aggregate-config';
import type {
  AggregateDescription,
  EntityDescription,
  FieldDescription,
  OperandDescription,
  OperationDescription,
  OperationShapes,
  RelationDescription,
  RolesDescription,
  WriteSlotDescription,
} from './entity-description';

/**
 * @param context a caller, when related entities have roles (`access`): their rows, and the relation paths into them,
 *   are described as that caller's role sees them there
 */
export function describeEntity(base: ResolvedEntity, context?: SvcContext): EntityDescription {
  const entity = context ? seenBy(base, context) : base;
  const readable = (name: string) => pathReadable(base, entity, name);
  const findMany = entity.listOperation;
  const findOne = entity.itemOperation;
  const slotOf = (slot: string) =>
    [...entity.operations.values()].find((operation) => operation.facts?.takes.body === slot)?.input;
  const list = findMany?.list ?? findOne?.list;
  // Each operation's route; a relation removal is described by its `?ids=` form (`/:memberId` is a shorthand).
  const routes = new Map<string, SvcRoute>();
  for (const route of routeTableOf(entity.config)) if (route.members !== 'param') routes.set(route.operation, route);
  const description: DescribedEntity = {
    name: entity.name,
    lookup: { param: entity.lookup.param, fields: [...entity.lookup.fields] },
    primaryKeys: [...entity.metadata.primaryKeys],
    fields: fieldsOf(entity),
    relations: relationsOf(entity),
    write: {
      create: withNestedSlot(
        describeSlot(entity, slotOf('create') ?? entity.input.create),
        nestedWritesOf(entity, 'create', 1, peerBody),
      ),
      update: withNestedSlot(
        describeSlot(entity, slotOf('update') ?? entity.input.update),
        nestedWritesOf(entity, 'update', 1, peerBody),
      ),
      patch: withNestedSlot(
        describeSlot(entity, slotOf('patch') ?? entity.input.patch),
        nestedWritesOf(entity, 'update', 1, peerBody),
      ),
    },
    output: {
      item: [...(findOne?.list?.outputFields ?? entity.output.fields)],
      list: [...(findMany?.list?.outputFields ?? entity.select.fields)],
    },
    filter: filterOf(entity, list, readable),
    sort: {
      fields: list ? [...list.sort.fields].filter(readable) : [],
      default: list ? list.sortDefault.filter((key) => readable(key.field)) : [],
    },
    select: {
      fields: [...entity.select.fields],
      ...(entity.select.default ? { default: [...entity.select.default] } : {}),
    },
    ...(entity.search
      ? { search: { fields: [...entity.search.fields].filter(readable), mode: entity.search.mode } }
      : {}),
    include: includeOf(entity),
    pagination: paginationOf(findMany?.list),
    softDelete: entity.softDeleteOnReads,
    ...realtimeOf(entity),
  };
  const subject = wordingSubject(entity.name, description);
  const schemas = new EntitySchemas(description, peerSchemas(entity).row);
  const peers = peerSchemas(entity);
  const operations = [...entity.operations.values()].map((operation) => {
    const shapes = describeOperation({
      operation,
      routes,
      config: entity.config,
      subject,
      batch: entity.batch,
      entity,
    });
    return { ...shapes, schemas: operationSchemasOf({ entity: description, operation: shapes, schemas, peers }) };
  });
  const roles = rolesOf(entity);
  return deepFreeze({ ...description, operations, schemas: schemas.entries(), ...(roles ? { roles } : {}) });
}

/** Per field, the roles whose view reads it and those whose view writes it (`access`). */
function rolesOf(entity: ResolvedEntity): RolesDescription | undefined {
  const views = entity.access?.views;
  if (!views) return undefined;
  const read: Record<string, string[]> = {};
  const write: Record<string, string[]> = {};
  for (const field of entity.select.fields) read[field] = [];
  const writable = new Set([...entity.input.create.fields.keys(), ...entity.input.update.fields.keys()]);
  for (const field of writable) write[field] = [];
  for (const [role, view] of views) {
    for (const field of view.select.fields) read[field]?.push(role);
    const creates = writesBy(view, 'create');
    const updates = writesBy(view, 'update');
    for (const field of writable) {
      if ((creates && view.input.create.fields.has(field)) || (updates && view.input.update.fields.has(field)))
        write[field]!.push(role);
    }
  }
  return { names: [...views.keys()], read, write };
}

/** Whether the view makes some write of this slot (a role's rule refuses a slot's writes by a refusing policy). */
function writesBy(view: ResolvedEntity, slot: 'create' | 'update'): boolean {
  return [...view.operations.values()].some(
    (operation) =>
      operation.facts?.takes.body === slot && operation.state === 'on' && operation.policy !== REFUSED_BY_ROLE,
  );
}

/** Rows and keys of the entities this one relates to, as Svc serves them (nothing of an entity it does not serve). */
function peerSchemas(entity: ResolvedEntity): PeerSchemas {
  const peerNamed = (name: string) =>
    entity.metadata.relations
      .map((relation) => entity.peer(relation.target))
      .find((peer) => peer !== undefined && peer.name === name);
  return {
    row: (name) => {
      const peer = peerNamed(name);
      if (!peer) return undefined;
      const fields = peer.listOperation?.list?.outputFields ?? peer.select.fields;
      return embeddedRowJsonSchema(peer.name, [...fields], fieldsOf(peer));
    },
    key: (name) => {
      const peer = peerNamed(name);
      const [key, ...others] = peer?.metadata.primaryKeys ?? [];
      const column = peer?.metadata.columns.find((candidate) => candidate.property === key);
      if (!column || others.length > 0) return undefined;
      return { name: key!, schema: columnJsonSchema({ ...column, nullable: false }, 'input') };
    },
  };
}

/** A related entity's write body, as its own description would give it (its nested relations left out). */
function peerBody(peer: ResolvedEntity, slot: WriteSchema, name: 'create' | 'patch'): Record<string, unknown> {
  const described = { name: peer.name, fields: fieldsOf(peer), write: { [name]: describeSlot(peer, slot) } };
  return writeBodyJsonSchema(
    described as unknown as DescribedEntity,
    name,
    `${peer.name}${name === 'create' ? 'Create' : 'Patch'}`,
  );
}

function fieldsOf(entity: ResolvedEntity): FieldDescription[] {
  const readable = new Set(entity.select.fields);
  return entity.metadata.columns.map((column) => ({
    name: column.property,
    kind: column.kind,
    nullable: column.nullable,
    primary: column.primary,
    generated: column.generated,
    hasDefault: column.hasDefault,
    ...(column.enumValues ? { enumValues: [...column.enumValues] } : {}),
    ...(column.length !== undefined ? { length: column.length } : {}),
    readable: readable.has(column.property),
    deleteMarker: column.deleteMarker,
    ...(column.foreignKeyOf ? { foreignKeyOf: column.foreignKeyOf } : {}),
    ...(column.list ? { list: { ...column.list } } : {}),
  }));
}

function relationsOf(entity: ResolvedEntity): RelationDescription[] {
  const includable = new Set(entity.include.relations.keys());
  return entity.metadata.relations.map((relation) => {
    const array = entity.arrayRelations.get(relation.property);
    return {
      name: relation.property,
      kind: relation.kind,
      target: entity.peer(relation.target)?.name ?? relation.targetName,
      includable: includable.has(relation.property),
      ...(array ? { write: { strategy: array.strategy, maxMembers: array.maxMembers } } : {}),
    };
  });
}

function filterOf(
  entity: ResolvedEntity,
  list: ListQueryConfig | undefined,
  readable: (name: string) => boolean,
): EntityDescription['filter'] {
  const limits = list?.filter.limits ?? entity.serverFilter.limits;
  const fields = list ? [...list.filter.fields].filter(([name]) => readable(name)) : [];
  return {
    fields: list
      ? fields.map(([name, field]) => ({
          name,
          kind: field.column.kind,
          operators: [...field.operators],
        }))
      : [],
    limits: { ...limits },
    operands: operandsOf(
      fields.map(([, field]) => field),
      limits,
    ),
  };
}

function includeOf(entity: ResolvedEntity): EntityDescription['include'] {
  return {
    relations: [...entity.include.relations].map(([name, relation]) => ({
      name,
      target: entity.peer(relation.relation.target)?.name ?? relation.relation.targetName,
      maxDepth: relation.maxDepth,
      ...(relation.strategy === 'key' ? { keysOnly: true } : {}),
    })),
    default: [...entity.include.default],
    maxDepth: entity.include.maxDepth,
    maxNodes: entity.include.maxNodes,
  };
}

/** The list's strategy and the parameters it takes (zeros where no list is served). */
function paginationOf(list: ListQueryConfig | undefined): EntityDescription['pagination'] {
  const strategy = list?.pagination.strategy;
  return {
    strategy: strategy?.name ?? 'offset',
    params: [...(strategy?.params ?? [])],
    defaultLimit: list?.pagination.defaultLimit ?? 0,
    maxLimit: list?.pagination.maxLimit ?? 0,
    count: list?.pagination.count ?? false,
    ...(strategy?.name === 'since' && list ? { sinceField: list.pagination.sinceField } : {}),
    ownsSort: strategy?.ownsSort === true,
  };
}

/** What the sentences of an entity's operations are written from. */
function wordingSubject(name: string, description: DescribedEntity): WordingSubject {
  const create = description.write.create;
  const required = [
    ...create.required,
    ...create.requiredOneOf.map(([reference, column]) => `${reference} or ${column}`),
  ];
  return {
    one: name,
    many: pluralOf(name),
    key: description.lookup.fields.join(', '),
    required: required.length > 0 ? required.join(', ') : 'none',
    softDelete: description.softDelete,
  };
}

/** The operand of each operator a field allows, bounded by the filter limits. */
function operandsOf(
  fields: readonly { readonly operators: ReadonlySet<FilterOperator> }[],
  limits: EntityDescription['filter']['limits'],
): EntityDescription['filter']['operands'] {
  const operands: Partial<Record<FilterOperator, OperandDescription>> = {};
  for (const operator of new Set(fields.flatMap((field) => [...field.operators]))) {
    const shape = OPERAND_SHAPES[operator];
    const help = OPERATOR_HELP[operator];
    operands[operator] =
      shape === 'list'
        ? { shape, help, minItems: 1, maxItems: limits.maxInValues }
        : shape === 'pair'
          ? { shape, help, minItems: 2, maxItems: 2 }
          : shape === 'pattern'
            ? { shape, help, maxLength: limits.maxLikePatternLength }
            : { shape, help };
  }
  return operands;
}

function realtimeOf(entity: ResolvedEntity): { realtime?: EntityDescription['realtime'] } {
  const events = realtimeEventsOf(entity);
  return events.length === 0 ? {} : { realtime: { events, path: EVENTS_PATH } };
}

function describeSlot(entity: ResolvedEntity, slot: WriteSchema): WriteSlotDescription {
  return {
    fields: [...slot.fields].map(([name, field]) =>
      field.kind === 'column'
        ? {
            name,
            kind: field.column.kind,
            nullable: field.column.nullable,
            ...(field.column.enumValues ? { enumValues: [...field.column.enumValues] } : {}),
            ...(field.column.length !== undefined ? { length: field.column.length } : {}),
            ...(field.column.list ? { list: { ...field.column.list } } : {}),
          }
        : {
            name,
            kind: 'reference' as const,
            nullable: field.relation.nullable,
            target: {
              entity: entity.peer(field.relation.target)?.name ?? field.relation.targetName,
              key: field.targetKey,
              keyKind: field.keyColumn.kind,
            },
          },
    ),
    required: [...slot.required],
    requiredOneOf: slot.requiredOneOf.map(([reference, column]) => [reference, column] as const),
    validated: slot.validator !== undefined,
    ...(slot.jsonSchema ? { jsonSchema: slot.jsonSchema } : {}),
  };
}

/** The aggregate config as a description tells it. */
function describeAggregate(entity: ResolvedEntity, aggregate: ResolvedAggregate): AggregateDescription {
  const kinds = new Map(entity.metadata.columns.map((column) => [column.property, column.kind]));
  return {
    fields: [...aggregate.functions].map(([field, functions]) => ({
      field,
      kind: kinds.get(field)!,
      functions: MEASURE_FUNCTIONS.filter((fn) => functions.has(fn)),
    })),
    groupBy: [...aggregate.groupBy].map(([field, { kind }]) => ({ field, kind })),
    maxGroups: aggregate.maxGroups,
  };
}

/** One operation as the surfaces see it: a standard one from its facts, a custom or relation one from its entry. */
function describeOperation(args: {
  operation: ResolvedOperation;
  routes: ReadonlyMap<string, SvcRoute>;
  config: EntityConfig;
  subject: WordingSubject;
  batch: ResolvedEntity['batch'];
  entity: ResolvedEntity;
}): OperationShapes {
  const { operation, subject } = args;
  const facts = operation.facts;
  const route = args.routes.get(operation.id);
  const action = operation.relationWrite?.action;
  const many = facts ? facts.cardinality === 'many' : operation.custom?.cardinality === 'many' || action === 'list';
  const defaultStatus = facts?.route.status ?? (operation.custom ? 201 : 200);
  const docs = docsOf(args.config, operation.id);
  const event = operation.event ?? operation.custom?.realtimeEvent;
  return {
    id: operation.id,
    standard: facts !== undefined,
    kind: operation.reads ? 'read' : 'write',
    cardinality: many ? 'many' : 'one',
    state: operation.state === 'disabled' ? 'disabled' : 'on',
    ...(route ? { route: { method: route.method, path: route.path } } : {}),
    successStatus: operation.route?.successStatus ?? defaultStatus,
    takesId: facts ? facts.takes.id : operation.relationWrite !== undefined || /(^|\/):/.test(route?.path ?? ''),
    body: facts
      ? facts.takes.body
      : operation.custom
        ? operation.custom.kind === 'write'
          ? 'custom'
          : 'none'
        : action === 'list' || action === 'remove'
          ? 'none'
          : 'members',
    query: facts ? facts.takes.query : operation.list !== undefined ? 'list' : action === 'remove' ? 'members' : 'none',
    answers: facts ? facts.answers : action === 'list' ? 'members' : many ? 'list' : 'item',
    ...(route?.jsonPatch && [...args.entity.arrayRelations.values()].some((array) => array.strategy === 'jsonPatch')
      ? { jsonPatch: true }
      : {}),
    ...(facts?.takes.items && args.batch ? { items: { maxItems: args.batch.maxItems } } : {}),
    // An upsert's items take no nested forms (a matched row's would need rules of their own).
    ...(facts?.takes.nested && !(facts.takes.items && args.batch?.upsert) ? { nested: true } : {}),
    ...(facts?.takes.query === 'filter' && args.batch ? { maxAffected: args.batch.maxAffected } : {}),
    ...(facts?.takes.query === 'aggregate' && args.entity.aggregate
      ? { aggregate: describeAggregate(args.entity, args.entity.aggregate) }
      : {}),
    ...(operation.relationWrite ? { relation: { name: operation.relationWrite.relation, action: action! } } : {}),
    ...(operation.custom?.realtimeEvent ? { realtimeEvent: operation.custom.realtimeEvent } : {}),
    ...(event ? { event } : {}),
    ...(operation.custom?.inputJsonSchema ? { inputSchema: operation.custom.inputJsonSchema } : {}),
    ...(facts
      ? {
          conditional: facts.conditional,
          wording: {
            title: `${facts.wording.verb} ${subject.one}`,
            sentence: facts.wording.sentence(subject),
            ...(facts.wording.done ? { done: facts.wording.done } : {}),
          },
          hints: facts.hints,
        }
      : {}),
    summary: docs.docs?.summary ?? (facts ? facts.wording.summary(subject) : summaryOf(subject, operation, action)),
    ...docs,
  };
}

const RELATION_SUMMARIES: Readonly<Record<string, (one: string, relation: string) => string>> = {
  list: (one, relation) => `List the ${relation} of ${withArticleOf(one)}`,
  add: (one, relation) => `Add ${relation} to ${withArticleOf(one)}`,
  replace: (one, relation) => `Replace the ${relation} of ${withArticleOf(one)}`,
  remove: (one, relation) => `Remove ${relation} from ${withArticleOf(one)}`,
};

/**
 * A custom or relation operation's summary. A custom operation's id is read as words, its entity named after a
 * closing `One` or `Many`: `publishOne` -> `Publish one Book`.
 */
function summaryOf(subject: WordingSubject, operation: ResolvedOperation, action: string | undefined): string {
  const relation = action !== undefined ? RELATION_SUMMARIES[action] : undefined;
  if (relation && operation.relationWrite) return relation(subject.one, operation.relationWrite.relation);
  const words = operation.id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  const sentence = words.charAt(0).toUpperCase() + words.slice(1);
  if (/ one$/.test(sentence)) return `${sentence} ${subject.one}`;
  if (/ many$/.test(sentence)) return `${sentence} ${subject.many}`;
  return `${sentence} (${subject.one})`;
}

/** `operations.<id>.meta`'s summary, description, deprecated and tags, when any is set. */
function docsOf(config: EntityConfig, id: string): { docs?: OperationDescription['docs'] } {
  const entry = (config.operations as Record<string, unknown> | undefined)?.[id];
  const meta = typeof entry === 'object' && entry !== null ? (entry as { meta?: OperationMeta }).meta : undefined;
  if (!meta) return {};
  const docs = {
    ...(meta.summary !== undefined ? { summary: meta.summary } : {}),
    ...(meta.description !== undefined ? { description: meta.description } : {}),
    ...(meta.deprecated !== undefined ? { deprecated: meta.deprecated } : {}),
    ...(meta.tags !== undefined ? { tags: [...meta.tags] } : {}),
  };
  return Object.keys(docs).length > 0 ? { docs } : {};
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as object)) deepFreeze(inner);
  }
  return value;
}

/** The entity with each related entity as this caller's role sees it (`access`). */
function seenBy(entity: ResolvedEntity, context: SvcContext): ResolvedEntity {
  return {
    ...entity,
    peer: (target) => {
      const peer = entity.peer(target);
      return peer && roleView(peer, context);
    },
  };
}

/**
 * Whether a relation path (`book.cost`) names a field the caller's role reads on the related entity; an own field,
 * or a path into an entity the caller sees whole, always does.
 */
function pathReadable(base: ResolvedEntity, seen: ResolvedEntity, name: string): boolean {
  const dot = name.indexOf('.');
  if (dot < 0) return true;
  const relation = base.metadata.relations.find((candidate) => candidate.property === name.slice(0, dot));
  if (!relation) return true;
  const served = base.peer(relation.target);
  const view = seen.peer(relation.target);
  if (!served || !view || served === view) return true;
  const field = name.slice(dot + 1);
  return view.select.fieldSet.has(field) || !served.select.fieldSet.has(field);
}
