/**
 * The named JSON Schemas an entity's operations share: its row as served (`Book`), a list item where a list serves
 * other fields (`BookListItem`), the list envelope (`BookList`), the write bodies (`BookCreate`, `BookUpdate`,
 * `BookPatch`), the typed filter (`BookFilter`), the aggregate answer (`BookAggregate`) and `Problem`. An operation's
 * schemas refer to them as `#/$defs/<name>`; a surface keeps them where its format says (an OpenAPI document's
 * `components.schemas`, a tool's `$defs`) by moving that one prefix. Only what some operation refers to is named.
 */
import { withNestedProperties } from './nested-write-schemas';
import type { EntityDescription, FieldDescription, WriteFieldDescription } from './entity-description';
import type { AggregateDescription } from './entity-description';
import { aggregateResultJsonSchema } from './aggregate-json-schema';
import { filterJsonSchema } from './filter-json-schema';
import {
  admitNull,
  columnJsonSchema,
  PROBLEM_JSON_SCHEMA,
  referenceRulesJsonSchema,
  type JsonSchema,
} from './json-schema';

/** Where a named schema lives, as an operation's schemas refer to it. */
export const SCHEMA_REF_PREFIX = '#/$defs/';

/** A reference to the named schema `name`. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `${SCHEMA_REF_PREFIX}${name}` };
}

/** The name a `$ref` of an operation's schema points to, or undefined for any other pointer. */
export function schemaNameOf(pointer: string): string | undefined {
  return pointer.startsWith(SCHEMA_REF_PREFIX) ? pointer.slice(SCHEMA_REF_PREFIX.length) : undefined;
}

/** The description minus what is built from it (its operations and schemas). */
export type DescribedEntity = Omit<EntityDescription, 'operations' | 'schemas'>;

/** How a row of a related entity is served when it is embedded (its list fields), when Svc serves that entity. */
export type PeerRow = (entity: string) => JsonSchema | undefined;

/** What an operation's schemas ask of the entities its rows relate to. */
export interface PeerSchemas {
  /** An embedded row of `entity`, when Svc serves it. */
  readonly row: PeerRow;
  /** The primary key of `entity` and its schema, when it has a single one. */
  key(entity: string): { readonly name: string; readonly schema: JsonSchema } | undefined;
}

const SLOT_SUFFIX = { create: 'Create', update: 'Update', patch: 'Patch' } as const;

/** The entity's named schemas, made as the operations refer to them. */
export class EntitySchemas {
  private readonly named = new Map<string, JsonSchema>();

  constructor(
    private readonly entity: DescribedEntity,
    private readonly peerRow: PeerRow,
  ) {}

  /** The schemas named so far, by name. */
  entries(): Record<string, JsonSchema> {
    return Object.fromEntries(this.named);
  }

  /** The row a read by id and a one-row write serve, with its includable relations. */
  item(): JsonSchema {
    return this.name(this.entity.name, () => this.row(this.entity.output.item));
  }

  /** A list page: `items`, `total`, `limit`, `offset` and the strategy's `meta`. */
  list(): JsonSchema {
    const { item, list } = this.entity.output;
    const row = sameList(list, item) ? this.item() : this.name(`${this.entity.name}ListItem`, () => this.row(list));
    return this.name(`${this.entity.name}List`, () => listEnvelopeJsonSchema(this.entity.pagination.strategy, row));
  }

  /**
   * A write slot's body; a patch must change something. Without `nested` (an operation whose body takes no nested
   * forms), a slot with nested relations gets a body of its own fields alone (`BookPatchFields`).
   */
  write(slot: 'create' | 'update' | 'patch', nested = true): JsonSchema {
    const flat = !nested && this.entity.write[slot].nested !== undefined;
    const name = `${this.entity.name}${SLOT_SUFFIX[slot]}${flat ? 'Fields' : ''}`;
    return this.name(name, () => writeBodyJsonSchema(this.entity, slot, name, { nested: !flat }));
  }

  /** The typed JSON filter, or undefined when nothing is filterable. */
  filter(): JsonSchema | undefined {
    const name = `${this.entity.name}Filter`;
    const schema = filterJsonSchema(this.entity as EntityDescription, `${SCHEMA_REF_PREFIX}${name}`);
    return schema ? this.name(name, () => schema) : undefined;
  }

  /** One page of an aggregate's groups. */
  aggregate(aggregate: AggregateDescription): JsonSchema {
    return this.name(`${this.entity.name}Aggregate`, () => aggregateResultJsonSchema(aggregate));
  }

  /** The problem details object every error answers. */
  problem(): JsonSchema {
    return this.name('Problem', () => PROBLEM_JSON_SCHEMA);
  }

  /** One row: `fields` of the entity's columns, and the relations a read may embed as optional members. */
  private row(fields: readonly string[]): JsonSchema {
    const byName = new Map<string, FieldDescription>(this.entity.fields.map((field) => [field.name, field]));
    const properties: Record<string, JsonSchema> = {};
    for (const name of fields) {
      const field = byName.get(name);
      properties[name] = field ? columnJsonSchema(field, 'output') : {};
    }
    for (const relation of this.entity.include.relations) {
      const kind = this.entity.relations.find((candidate) => candidate.name === relation.name)?.kind;
      const member = this.peerRow(relation.target) ?? { type: 'object' };
      properties[relation.name] =
        kind === 'one-to-many' || kind === 'many-to-many' ? { type: 'array', items: member } : admitNull(member);
    }
    return { type: 'object', title: this.entity.name, description: `A ${this.entity.name}.`, properties };
  }

  private name(name: string, build: () => JsonSchema): JsonSchema {
    if (!this.named.has(name)) this.named.set(name, build());
    return schemaRef(name);
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** An embedded row of an entity Svc serves: its list fields, open to the members a nested include adds. */
export function embeddedRowJsonSchema(
  name: string,
  fields: readonly string[],
  columns: readonly FieldDescription[],
): JsonSchema {
  const byName = new Map(columns.map((field) => [field.name, field]));
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    const column = byName.get(field);
    properties[field] = column ? columnJsonSchema(column, 'output') : {};
  }
  return { type: 'object', title: name, properties };
}

/**
 * A list page: `items`, `total` (null when counting is off), `limit`, `offset`, and `meta` with the position of the
 * next page under the `cursor` (`nextCursor`) and `since` (`nextSince`) strategies.
 */
export function listEnvelopeJsonSchema(strategy: string | undefined, item: JsonSchema): JsonSchema {
  const next = strategy === 'cursor' ? 'nextCursor' : strategy === 'since' ? 'nextSince' : undefined;
  const meta: JsonSchema = next
    ? {
        type: 'object',
        description:
          next === 'nextCursor'
            ? '`nextCursor`: send it as `cursor` for the next page; null on the last page.'
            : '`nextSince`: send it as `since` on the next poll.',
        properties: { [next]: { type: ['string', 'null'] } },
        required: [next],
      }
    : { type: 'object', description: 'Members a list handler adds (`withListMeta`).' };
  return {
    type: 'object',
    properties: {
      items: { type: 'array', items: item },
      total: { type: ['integer', 'null'], minimum: 0, description: 'Rows matching the filter; null when not counted.' },
      limit: { type: 'integer', minimum: 0 },
      offset: { type: 'integer', minimum: 0 },
      meta,
    },
    required: next ? ['items', 'total', 'limit', 'offset', 'meta'] : ['items', 'total', 'limit', 'offset'],
  };
}

const SLOT_SENTENCES = {
  create: (name: string) => `The new ${name}'s fields.`,
  update: (name: string) => `Every writable ${name} field: one left out is reset to its default (a replace).`,
  patch: (name: string) => `The ${name} fields to change; the others keep their values.`,
} as const;

/**
 * A write body: the JSON Schema the slot's validator states when it can, else exactly the slot's writable fields
 * (a to-one reference as `{ "<key>": id }`, never together with its foreign-key column), with the required ones.
 */
export function writeBodyJsonSchema(
  entity: DescribedEntity,
  slot: 'create' | 'update' | 'patch',
  title: string,
  options: { readonly nested?: boolean } = {},
): JsonSchema {
  const write = options.nested === false ? { ...entity.write[slot], nested: undefined } : entity.write[slot];
  const patch = slot === 'patch' ? { minProperties: 1 } : {};
  if (write.jsonSchema) {
    const { $schema: _dialect, ...schema } = write.jsonSchema;
    const body: JsonSchema = { title, ...schema, ...patch };
    return write.nested && isRecord(body['properties']) ? withNestedProperties(body, write.nested) : body;
  }
  const properties: Record<string, JsonSchema> = {};
  for (const field of write.fields) properties[field.name] = writeFieldJsonSchema(field);
  const allOf = referenceRulesJsonSchema(entity as EntityDescription, slot);
  const body: JsonSchema = {
    type: 'object',
    title,
    description: SLOT_SENTENCES[slot](entity.name),
    properties,
    ...(slot !== 'patch' && write.required.length > 0 ? { required: [...write.required] } : {}),
    ...(allOf.length > 0 ? { allOf } : {}),
    additionalProperties: false,
    ...patch,
  };
  return write.nested ? withNestedProperties(body, write.nested) : body;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function writeFieldJsonSchema(field: WriteFieldDescription): JsonSchema {
  if (field.kind !== 'reference') return columnJsonSchema({ ...field, kind: field.kind }, 'input');
  const target = field.target!;
  const reference: JsonSchema = {
    type: 'object',
    description: `A reference to a ${target.entity} by its ${target.key}.`,
    properties: { [target.key]: columnJsonSchema({ kind: target.keyKind }, 'input') },
    required: [target.key],
    additionalProperties: false,
  };
  return field.nullable ? admitNull(reference) : reference;
}
