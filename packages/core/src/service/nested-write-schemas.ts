/**
 * The nested forms a write body takes (`relations.<name>.write.nested`), described: each relation's forms and the
 * JSON Schema of what it takes, the related entity's own create and patch bodies inlined (and, within the relation's
 * `write.maxDepth`, their own nested relations), so the agent tools, OpenAPI and GraphQL show what the engine takes.
 */
import type { NestedRelation } from '../config/nested-writes';
import type { ResolvedEntity } from '../entity/resolved-entity';
import type { WriteSchema } from '../schema/write-schema';
import { columnJsonSchema } from './json-schema';
import type { NestedWriteDescription, WriteSlotDescription } from './entity-description';

type JsonSchema = Record<string, unknown>;

/**
 * The nested relations of one slot of `entity`, for the body `depth` levels down (1: the request's own body).
 * `bodyOf` describes a related entity's write slot as a JSON Schema, its nested properties left to this module.
 */
export function nestedWritesOf(
  entity: ResolvedEntity,
  slot: 'create' | 'update',
  depth: number,
  bodyOf: (peer: ResolvedEntity, schema: WriteSchema, slot: 'create' | 'patch') => JsonSchema,
): NestedWriteDescription[] {
  const out: NestedWriteDescription[] = [];
  for (const [name, nested] of entity.nested) {
    const allowed = entity.nestedWritable?.[slot];
    if ((allowed && !allowed.has(name)) || depth > nested.maxDepth) continue;
    const peer = entity.peer(nested.relation.target);
    if (!peer) continue;
    const forms = [...nested.forms];
    const one = formsSchema(peer, nested, depth, bodyOf);
    out.push({
      relation: name,
      target: peer.name,
      many: nested.toMany,
      forms,
      key: nested.targetKey.property,
      ...(nested.matchBy ? { matchBy: [...nested.matchBy] } : {}),
      maxMembers: nested.maxMembers,
      maxDepth: nested.maxDepth,
      schema: nested.toMany ? { type: 'array', maxItems: nested.maxMembers, items: one } : one,
    });
  }
  return out;
}

/** One nested form of the relation, as a schema: one of `{ create }`, `{ connect }`, ... */
function formsSchema(
  peer: ResolvedEntity,
  nested: NestedRelation,
  depth: number,
  bodyOf: (peer: ResolvedEntity, schema: WriteSchema, slot: 'create' | 'patch') => JsonSchema,
): JsonSchema {
  const key = nested.targetKey;
  const keySchema: JsonSchema = {
    type: 'object',
    properties: { [key.property]: columnJsonSchema({ ...key, nullable: false }, 'input') },
    required: [key.property],
    additionalProperties: false,
  };
  // The member's own nested relations are added before its way back is taken out, which a nested form may name too.
  const create = () =>
    withoutInverse(withNested(peer, 'create', depth, bodyOf(peer, createSlot(peer), 'create'), bodyOf), peer, nested);
  const one = (form: string, schema: JsonSchema): JsonSchema => ({
    type: 'object',
    properties: { [form]: schema },
    required: [form],
    additionalProperties: false,
  });
  const options: JsonSchema[] = [];
  for (const form of nested.forms) {
    if (form === 'create') options.push(one('create', create()));
    if (form === 'connect') options.push(one('connect', keySchema));
    if (form === 'connectOrCreate') {
      const where: JsonSchema = {
        type: 'object',
        properties: {},
        required: [...nested.matchBy!],
        additionalProperties: false,
      };
      for (const field of nested.matchBy!) {
        const column = peer.metadata.columns.find((candidate) => candidate.property === field)!;
        (where['properties'] as JsonSchema)[field] = columnJsonSchema({ ...column, nullable: false }, 'input');
      }
      // The created row takes the matched values from `where`, so none of its fields is required here.
      const { required: _required, ...created } = create();
      options.push(
        one('connectOrCreate', {
          type: 'object',
          properties: { where, create: created },
          required: ['where', 'create'],
          additionalProperties: false,
        }),
      );
    }
    if (form === 'update') {
      const patch = peer.operations.get('patchOne')?.input ?? peer.input.patch;
      options.push(
        one('update', {
          type: 'object',
          properties: { where: keySchema, data: bodyOf(peer, patch, 'patch') },
          required: ['where', 'data'],
          additionalProperties: false,
        }),
      );
    }
  }
  return {
    description: `A ${peer.name} written with this row: ${[...nested.forms].join(', ')}.`,
    oneOf: options,
  };
}

function createSlot(peer: ResolvedEntity): WriteSchema {
  return peer.operations.get('createOne')?.input ?? peer.input.create;
}

/** A one-to-many member's body without its relation back to the parent, which the write sets. */
function withoutInverse(schema: JsonSchema, peer: ResolvedEntity, nested: NestedRelation): JsonSchema {
  if (!nested.inverse) return schema;
  const back = peer.metadata.relations.find((relation) => relation.property === nested.inverse);
  const names = new Set([nested.inverse, ...(back?.joinColumns.flatMap((column) => column.property ?? []) ?? [])]);
  const properties = Object.fromEntries(
    Object.entries((schema['properties'] as JsonSchema | undefined) ?? {}).filter(([name]) => !names.has(name)),
  );
  const required = ((schema['required'] as string[] | undefined) ?? []).filter((name) => !names.has(name));
  const { allOf: _allOf, required: _required, ...rest } = schema;
  return { ...rest, properties, ...(required.length > 0 ? { required } : {}) };
}

/** A related row's create body with the nested forms of its own relations, within the depth its relations allow. */
function withNested(
  peer: ResolvedEntity,
  slot: 'create',
  depth: number,
  schema: JsonSchema,
  bodyOf: (peer: ResolvedEntity, schema: WriteSchema, slot: 'create' | 'patch') => JsonSchema,
): JsonSchema {
  const deeper = nestedWritesOf(peer, slot, depth + 1, bodyOf);
  return deeper.length === 0 ? schema : withNestedProperties(schema, deeper);
}

/** A body schema with each nested relation's property: to-one as its reference or a nested form, to-many as forms. */
export function withNestedProperties(schema: JsonSchema, nested: readonly NestedWriteDescription[]): JsonSchema {
  const properties = { ...((schema['properties'] as JsonSchema | undefined) ?? {}) };
  for (const relation of nested) {
    const existing = properties[relation.relation] as JsonSchema | undefined;
    properties[relation.relation] =
      existing && !relation.many ? { anyOf: [existing, relation.schema] } : relation.schema;
  }
  return { ...schema, properties };
}

/** The slot description with its nested relations, where it has any. */
export function withNestedSlot(
  slot: WriteSlotDescription,
  nested: readonly NestedWriteDescription[],
): WriteSlotDescription {
  return nested.length === 0 ? slot : { ...slot, nested };
}
