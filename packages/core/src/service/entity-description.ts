/**
 * The description API: one plain, frozen account of what an entity serves, derived once from its resolved config.
 * Every surface beyond REST (OpenAPI, the agent tools, GraphQL) reads it instead of core's internals, so they agree.
 */
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import type { ColumnKind, ColumnList, RelationKind } from '../persistence/entity-metadata';
import type { FilterOperator, SortKey } from '../persistence/query-ast';
import { OPERAND_SHAPES, OPERATOR_HELP, type OperandShape } from '../query/operand-shapes';
import { routeTableOf, type SvcRoute } from '../operations/route-table';
import {
  pluralOf,
  withArticle as withArticleOf,
  type HttpMethod,
  type OperationFacts,
  type WordingSubject,
} from '../config/operation-facts';
import type { WriteSchema } from '../schema/write-schema';
import type { ListQueryConfig } from '../query/list-query-config';
import { realtimeEventsOf } from '../operations/realtime-subscription';
import { EVENTS_PATH } from '../operations/route-table';
import type { EntityConfig, OperationMeta } from '../config/entity-config';
import { MEASURE_FUNCTIONS, type MeasureFunction, type ResolvedAggregate } from '../config/aggregate-config';

export interface FieldDescription {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly nullable: boolean;
  readonly primary: boolean;
  /**
   * Written by the database or the ORM, never by a client (auto-increment, generated uuid, create/update date,
   * version, the discriminator of single-table inheritance).
   */
  readonly generated: boolean;
  /** The database or the ORM supplies a value when none is written. */
  readonly hasDefault: boolean;
  readonly enumValues?: readonly (string | number)[];
  readonly length?: number;
  /** On `select.fields`: served in responses. */
  readonly readable: boolean;
  /** The soft-delete marker. */
  readonly deleteMarker: boolean;
  /** The to-one relation this column is the foreign key of. */
  readonly foreignKeyOf?: string;
  /** A list column's items (its kind is `json`): an array of `of` values. */
  readonly list?: ColumnList;
}

export interface WriteFieldDescription {
  readonly name: string;
  /** A column, or a to-one relation written by reference (`{ "<targetKey>": id }`). */
  readonly kind: ColumnKind | 'reference';
  readonly nullable: boolean;
  readonly enumValues?: readonly (string | number)[];
  /** Columns: the most characters a string takes. */
  readonly length?: number;
  /** Columns: a list column's items (its kind is `json`). */
  readonly list?: ColumnList;
  /** References: the target entity and the kind of its key. */
  readonly target?: { readonly entity: string; readonly key: string; readonly keyKind: ColumnKind };
}

export interface WriteSlotDescription {
  readonly fields: readonly WriteFieldDescription[];
  /** Fields a body must hold (create; and the replace of update). */
  readonly required: readonly string[];
  /**
   * Pairs of a reference that may not be null and its foreign-key column, both writable: a body must hold one of the
   * two (create; and the replace of update). A body never holds both of a reference and its column, on any slot.
   */
  readonly requiredOneOf: readonly (readonly [reference: string, column: string])[];
  /** A schema class or Standard Schema validator checks the body before the field rules. */
  readonly validated: boolean;
  /** The body's JSON Schema (draft 2020-12), when the slot's Standard Schema validator exposes one. */
  readonly jsonSchema?: Readonly<Record<string, unknown>>;
}

export interface RelationDescription {
  readonly name: string;
  readonly kind: RelationKind;
  /** The target entity's name. */
  readonly target: string;
  readonly includable: boolean;
  /** Array writes of a to-many relation (`relations.<name>.write`). */
  readonly write?: { readonly strategy: 'replace' | 'resource' | 'jsonPatch'; readonly maxMembers: number };
}

/** An operator's operand: one of five shapes, bounded by the entity's filter limits. */
export interface OperandDescription {
  readonly shape: OperandShape;
  readonly help: string;
  /** `list` and `pair`: how many values it takes. */
  readonly minItems?: number;
  readonly maxItems?: number;
  /** `pattern`: the most characters it takes. */
  readonly maxLength?: number;
}

export interface OperationDescription {
  readonly id: string;
  readonly standard: boolean;
  readonly kind: 'read' | 'write';
  readonly cardinality: 'one' | 'many';
  /** 'on', or 'disabled' by the global operations map (405). */
  readonly state: 'on' | 'disabled';
  /** Its HTTP route, unless it is served only through the engine. */
  readonly route?: { readonly method: HttpMethod; readonly path: string };
  readonly successStatus: number;
  /** It addresses one row by the entity's lookup fields (the route's `:id`). */
  readonly takesId: boolean;
  /** What the body is: a write slot, the custom operation's own shape, member ids, or none. */
  readonly body: 'create' | 'update' | 'patch' | 'custom' | 'members' | 'none';
  /** The body is a JSON array of 1 to `batch.maxItems` bodies of that slot (a batch create). */
  readonly items?: { readonly maxItems: number };
  /**
   * The query parameters it takes: `list` (filter, sort, select, include, search and the strategy's paging), `item`
   * (select and include), `filter` (the list grammar's filter alone, required: the rows a batch changes),
   * `aggregate` (groupBy, count, the functions, sort, limit and offset over groups, with filter and search), or `none`.
   */
  readonly query: 'list' | 'item' | 'filter' | 'aggregate' | 'none';
  /** An aggregate: the functions each field takes, the fields it groups by, and the most groups a call answers. */
  readonly aggregate?: AggregateDescription;
  /** A batch write by filter: the most rows one call may change (`batch.maxAffected`). */
  readonly maxAffected?: number;
  /** A custom write's body, as the JSON Schema (draft 2020-12) of its `schema.input`, when its validator can say. */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** Relation array writes: the relation and the action. */
  readonly relation?: { readonly name: string; readonly action: string };
  /** A custom write's event. */
  readonly realtimeEvent?: string;
  /** The event a committed call publishes (a standard write's, a custom write's `realtimeEvent`). */
  readonly event?: string;
  /** Standard operations: what a success serves (the row, a page of rows, or nothing). */
  readonly answers?: OperationFacts['answers'];
  /** Standard operations: whether If-None-Match answers 304, and whether If-Match is checked or refused. */
  readonly conditional?: OperationFacts['conditional'];
  /** A one-line summary (`operations.<id>.meta.summary` wins): `Create a Book`, `Publish one Book`. */
  readonly summary: string;
  /** Standard operations: a title (`Create Book`), a sentence for an agent, and what a bodiless success did. */
  readonly wording?: { readonly title: string; readonly sentence: string; readonly done?: string };
  /** Standard operations: hints for a tool host (never a security boundary). */
  readonly hints?: OperationFacts['hints'];
  /** What `operations.<id>.meta` says of it for documentation (OpenAPI), when it says anything. */
  readonly docs?: {
    readonly summary?: string;
    readonly description?: string;
    readonly deprecated?: boolean;
    readonly tags?: readonly string[];
  };
}

export interface EntityDescription {
  readonly name: string;
  /** The route parameter and the fields a single row is looked up by. */
  readonly lookup: { readonly param: string; readonly fields: readonly string[] };
  readonly primaryKeys: readonly string[];
  readonly fields: readonly FieldDescription[];
  readonly relations: readonly RelationDescription[];
  readonly write: {
    readonly create: WriteSlotDescription;
    readonly update: WriteSlotDescription;
    readonly patch: WriteSlotDescription;
  };
  /** What each read serves: `findOne` and write responses (`item`), each `findMany` item (`list`). */
  readonly output: { readonly item: readonly string[]; readonly list: readonly string[] };
  readonly filter: {
    readonly fields: readonly {
      readonly name: string;
      readonly kind: ColumnKind;
      readonly operators: readonly FilterOperator[];
    }[];
    readonly limits: {
      readonly maxDepth: number;
      readonly maxInValues: number;
      readonly maxLikePatternLength: number;
      readonly maxTerms: number;
    };
    /** What each operator the fields allow takes: its operand shape, the shape's bound and a line of help. */
    readonly operands: Readonly<Partial<Record<FilterOperator, OperandDescription>>>;
  };
  readonly sort: { readonly fields: readonly string[]; readonly default: readonly SortKey[] };
  readonly select: { readonly fields: readonly string[]; readonly default?: readonly string[] };
  readonly search?: { readonly fields: readonly string[]; readonly mode: 'substring' | 'words' };
  readonly include: {
    readonly relations: readonly {
      readonly name: string;
      readonly target: string;
      readonly maxDepth: number;
      /** `relations.<name>.read.strategy: key`: an included row holds only the target's key. */
      readonly keysOnly?: boolean;
    }[];
    readonly default: readonly string[];
    readonly maxDepth: number;
    readonly maxNodes: number;
  };
  /** `findMany`'s strategy and the query parameters it takes. */
  readonly pagination: {
    readonly strategy: string;
    readonly params: readonly string[];
    readonly defaultLimit: number;
    readonly maxLimit: number;
    readonly count: boolean;
    readonly sinceField?: string;
    /** The strategy sets the order itself, so `sort` is not taken. */
    readonly ownsSort: boolean;
  };
  readonly softDelete: boolean;
  /**
   * Realtime, when the entity publishes events: their ids, the fields an event's `item` may carry (after
   * `select.fields` and `realtime.subscribableFields`), and the subscription route (`GET <path>`, taking `filter` and
   * `id`), answered as Server-Sent Events when a transport serves them.
   */
  readonly realtime?: {
    readonly events: readonly string[];
    readonly path: string;
  };
  /** Served operations (standard, custom and relation operations), enabled or disabled by the global map. */
  readonly operations: readonly OperationDescription[];
}

export function describeEntity(entity: ResolvedEntity): EntityDescription {
  const findMany = entity.listOperation;
  const findOne = entity.itemOperation;
  const slotOf = (slot: string) =>
    [...entity.operations.values()].find((operation) => operation.facts?.takes.body === slot)?.input;
  const list = findMany?.list ?? findOne?.list;
  // Each operation's route; a relation removal is described by its `?ids=` form (`/:memberId` is a shorthand).
  const routes = new Map<string, SvcRoute>();
  for (const route of routeTableOf(entity.config)) if (route.members !== 'param') routes.set(route.operation, route);
  const description: EntityDescription = {
    name: entity.name,
    lookup: { param: entity.lookup.param, fields: [...entity.lookup.fields] },
    primaryKeys: [...entity.metadata.primaryKeys],
    fields: fieldsOf(entity),
    relations: relationsOf(entity),
    write: {
      create: describeSlot(entity, slotOf('create') ?? entity.input.create),
      update: describeSlot(entity, slotOf('update') ?? entity.input.update),
      patch: describeSlot(entity, slotOf('patch') ?? entity.input.patch),
    },
    output: {
      item: [...(findOne?.list?.outputFields ?? entity.output.fields)],
      list: [...(findMany?.list?.outputFields ?? entity.select.fields)],
    },
    filter: filterOf(entity, list),
    sort: { fields: list ? [...list.sort.fields] : [], default: list ? [...list.sortDefault] : [] },
    select: {
      fields: [...entity.select.fields],
      ...(entity.select.default ? { default: [...entity.select.default] } : {}),
    },
    ...(entity.search ? { search: { fields: [...entity.search.fields], mode: entity.search.mode } } : {}),
    include: includeOf(entity),
    pagination: paginationOf(findMany?.list),
    softDelete: entity.softDeleteOnReads,
    ...realtimeOf(entity),
    operations: [],
  };
  const subject = wordingSubject(entity.name, description);
  const operations = [...entity.operations.values()].map((operation) =>
    describeOperation({ operation, routes, config: entity.config, subject, batch: entity.batch, entity }),
  );
  return deepFreeze({ ...description, operations });
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

function filterOf(entity: ResolvedEntity, list: ListQueryConfig | undefined): EntityDescription['filter'] {
  const limits = list?.filter.limits ?? entity.serverFilter.limits;
  return {
    fields: list
      ? [...list.filter.fields].map(([name, field]) => ({
          name,
          kind: field.column.kind,
          operators: [...field.operators],
        }))
      : [],
    limits: { ...limits },
    operands: operandsOf(list ? [...list.filter.fields.values()] : [], limits),
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
function wordingSubject(name: string, description: EntityDescription): WordingSubject {
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

/** What an aggregate takes: `count` is always served; the other functions by field. */
export interface AggregateDescription {
  /** The functions each own column takes, with its kind (a sum of a decimal column is an exact decimal string). */
  readonly fields: readonly {
    readonly field: string;
    readonly kind: ColumnKind;
    readonly functions: readonly MeasureFunction[];
  }[];
  /** The groupable fields, own columns and to-one paths (`author.country`), with the kind of their values. */
  readonly groupBy: readonly { readonly field: string; readonly kind: ColumnKind }[];
  readonly maxGroups: number;
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
}): OperationDescription {
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
        : action === 'list'
          ? 'none'
          : 'members',
    query: facts ? facts.takes.query : operation.list !== undefined ? 'list' : 'none',
    ...(facts?.takes.items && args.batch ? { items: { maxItems: args.batch.maxItems } } : {}),
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
          answers: facts.answers,
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
