/**
 * The write inputs of an entity, one per write slot: `<Entity>CreateInput`, `<Entity>UpdateInput` and
 * `<Entity>PatchInput` hold exactly the slot's writable fields (required ones non-null, on create and on the replace of
 * update). A to-one relation written by reference takes `{ <key>: ID! }` (`<Target>Reference`).
 *
 * A relation with nested writes (`description.write.<slot>.nested`) takes `<Entity><Relation>NestedInput` (a list of
 * them for a to-many relation): one optional field per form the relation takes (`create`, `connect`,
 * `connectOrCreate`, `update`), of which a value holds exactly one, as the body does. A to-one relation that is also
 * written by reference keeps that form as the nested input's own key field: `author: { id: "7" }` still references a
 * row, `author: { create: { ... } }` creates one, `author: null` clears it. The input's value is the body's shape, so
 * it becomes the body field for field. The nested rows' inputs are their entities' own (`<Target>CreateInput`,
 * `<Target>PatchInput`), built on first use with their fields as thunks, since two entities may nest each other; how
 * deep a body nests is the engine's to check (`write.maxDepth`).
 */
import {
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLInputFieldConfig,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLEnumType,
  type GraphQLScalarType,
} from 'graphql';
import {
  ValidationFailedException,
  type NestedWriteDescription,
  type WriteFieldDescription,
  type WriteSlotDescription,
} from '@svc/core';
import type { ColumnKind } from '@svc/core/spi';
import type { EntityPlan } from './entity-plan';
import { graphqlFieldName, isGraphqlName, pascal } from './graphql-names';
import type { SchemaTypes } from './schema-types';

export type WriteSlot = 'create' | 'update' | 'patch';

/** A write input type and how a value of it becomes the operation's body. */
export interface WriteInput {
  readonly type: GraphQLInputObjectType;
  /** `prefix` leads the path of a problem found in the value (`[2].` for a batch's third row). */
  toBody(value: Readonly<Record<string, unknown>>, prefix?: string): Record<string, unknown>;
}

type Value = Readonly<Record<string, unknown>>;
type Body = Record<string, unknown>;

const SLOT_NAMES: Readonly<Record<WriteSlot, string>> = { create: 'Create', update: 'Update', patch: 'Patch' };

const SLOT_HELP: Readonly<Record<WriteSlot, (entity: string) => string>> = {
  create: (entity) => `The fields of a new ${entity}.`,
  update: (entity) => `Every writable field of an existing ${entity}; one left out is reset to its default.`,
  patch: (entity) => `The fields to change in an existing ${entity}; the others keep their values.`,
};

/** Which of a slot's fields an input holds, and whether it requires any. */
interface Shape {
  readonly name: string;
  readonly description: string;
  /** Fields and nested relations left out (a one-to-many member's relation back to the parent). */
  readonly omit: ReadonlySet<string>;
  /** Every field optional (a connect-or-create's row, which takes the matched values from `where`). */
  readonly optional: boolean;
}

const NONE: ReadonlySet<string> = new Set();

/** The write inputs of the schema's entities, made once each, on first use. */
export class WriteInputs {
  private readonly made = new Map<string, WriteInput | undefined>();

  constructor(
    private readonly plans: ReadonlyMap<string, EntityPlan>,
    private readonly types: SchemaTypes,
  ) {}

  /** `<Entity><Slot>Input`; undefined when the slot takes nothing (the mutation then takes no input). */
  of(entity: string, slot: WriteSlot): WriteInput | undefined {
    const plan = this.plans.get(entity);
    if (!plan) return undefined;
    return this.shaped(plan, slot, {
      name: `${plan.typeName}${SLOT_NAMES[slot]}Input`,
      description: SLOT_HELP[slot](plan.typeName),
      omit: NONE,
      optional: false,
    });
  }

  private shaped(plan: EntityPlan, slot: WriteSlot, shape: Shape): WriteInput | undefined {
    if (this.made.has(shape.name)) return this.made.get(shape.name);
    const description: WriteSlotDescription = plan.description.write[slot];
    const fields = description.fields.filter((field) => !shape.omit.has(field.name));
    const nested = this.nestedOf(plan, slot).filter((relation) => !shape.omit.has(relation.relation));
    if (fields.length === 0 && nested.length === 0) {
      this.made.set(shape.name, undefined);
      return undefined;
    }
    const required = new Set(slot === 'patch' || shape.optional ? [] : description.required);
    // GraphQL has no "one of these two": a required reference writable as its foreign-key column too says so instead.
    const eitherOf = new Map<string, string>();
    if (slot !== 'patch' && !shape.optional) {
      for (const [reference, column] of description.requiredOneOf) {
        eitherOf.set(reference, column);
        eitherOf.set(column, reference);
      }
    }
    const nestedBy = new Map(nested.map((relation) => [relation.relation, relation]));
    const type = this.types.add(
      new GraphQLInputObjectType({
        name: shape.name,
        description: shape.description,
        fields: () => {
          const inputs: GraphQLInputFieldConfigMap = {};
          for (const field of fields) {
            const relation = nestedBy.get(field.name);
            const type = relation ? this.nestedType(plan, relation) : inputTypeOf(plan, field, this.types);
            const other = eitherOf.get(field.name);
            inputs[graphqlFieldName(field.name)] = {
              type: required.has(field.name) && !field.nullable ? new GraphQLNonNull(type) : type,
              ...(other === undefined
                ? {}
                : { description: `Required unless ${other} is given (send one of the two).` }),
            };
          }
          for (const relation of nested) {
            if (inputs[relation.relation]) continue;
            const type = this.nestedType(plan, relation);
            inputs[relation.relation] = { type: relation.many ? new GraphQLList(new GraphQLNonNull(type)) : type };
          }
          return inputs;
        },
      }),
      plan.typeName,
    );
    // By GraphQL name: a column of an embedded class is `price_amount` in the input, `price.amount` in the body.
    const byName = new Map(fields.map((field) => [graphqlFieldName(field.name), field]));
    const nestedNames = new Set(nestedBy.keys());
    const input: WriteInput = {
      type,
      toBody: (value, prefix = '') => {
        const body = toBody(value, byName, nestedNames);
        for (const relation of nested) {
          const inner = body[relation.relation];
          if (inner === undefined || inner === null) continue;
          body[relation.relation] = this.nestedBody(plan, relation, inner, `${prefix}${relation.relation}`);
        }
        return body;
      },
    };
    this.made.set(shape.name, input);
    return input;
  }

  /** The slot's nested relations whose target the schema serves (a left-out entity's rows are not written here). */
  private nestedOf(plan: EntityPlan, slot: WriteSlot): readonly NestedWriteDescription[] {
    return (plan.description.write[slot].nested ?? []).filter(
      (relation) =>
        isGraphqlName(relation.relation) && this.plans.has(relation.target) && this.formsOf(relation).length > 0,
    );
  }

  /** The forms GraphQL gives the relation: those whose input the target has (a create needs a field to write). */
  private formsOf(relation: NestedWriteDescription): readonly NestedWriteDescription['forms'][number][] {
    const target = this.plans.get(relation.target)!;
    const { create, patch } = target.description.write;
    const omit = setByParent(target, relation);
    const creates =
      create.fields.some((field) => !omit.has(field.name)) ||
      (create.nested ?? []).some((nested) => !omit.has(nested.relation));
    const patches = patch.fields.length > 0 || (patch.nested?.length ?? 0) > 0;
    return relation.forms.filter((form) => (form === 'create' ? creates : form === 'update' ? patches : true));
  }

  /** `<Entity><Relation>NestedInput`: one field per form, and the key where the relation is written by reference. */
  private nestedType(plan: EntityPlan, relation: NestedWriteDescription): GraphQLInputObjectType {
    const name = `${plan.typeName}${pascal(relation.relation)}NestedInput`;
    const existing = this.types.get(name);
    if (existing instanceof GraphQLInputObjectType) return existing;
    const forms = this.formsOf(relation);
    const target = relation.target;
    const referenceKey = this.referenceKey(plan, relation);
    const fields = (): GraphQLInputFieldConfigMap => {
      const inputs: Record<string, GraphQLInputFieldConfig> = {};
      if (referenceKey)
        inputs[referenceKey] = {
          type: GraphQLID,
          description: `The ${referenceKey} of an existing ${target}: a plain reference.`,
        };
      for (const form of forms) {
        const type = this.formType(plan, relation, form);
        if (type) inputs[form] = { type, description: FORM_HELP[form](target) };
      }
      return inputs;
    };
    return this.types.add(
      new GraphQLInputObjectType({
        name,
        description: `The ${target} written with this ${plan.typeName}: exactly one of ${[...(referenceKey ? [referenceKey] : []), ...forms].join(', ')}.`,
        fields,
      }),
      plan.typeName,
    );
  }

  /** The key a to-one relation written by reference in some slot takes as its plain form. */
  private referenceKey(plan: EntityPlan, relation: NestedWriteDescription): string | undefined {
    if (relation.many) return undefined;
    for (const slot of ['create', 'update', 'patch'] as const) {
      const field = plan.description.write[slot].fields.find((candidate) => candidate.name === relation.relation);
      if (field?.kind === 'reference' && field.target) return field.target.key;
    }
    return undefined;
  }

  private formType(
    plan: EntityPlan,
    relation: NestedWriteDescription,
    form: NestedWriteDescription['forms'][number],
  ): GraphQLInputType | undefined {
    const base = `${plan.typeName}${pascal(relation.relation)}Nested`;
    const target = this.plans.get(relation.target)!;
    const key = referenceType(target.typeName, relation.key, this.types);
    switch (form) {
      case 'create':
        return this.createOf(plan, relation)?.type;
      case 'connect':
        return key;
      case 'connectOrCreate': {
        const where = this.matchType(plan, relation);
        const create = this.createIfMissingOf(plan, relation);
        const name = `${base}ConnectOrCreateInput`;
        const existing = this.types.get(name);
        if (existing instanceof GraphQLInputObjectType) return existing;
        return this.types.add(
          new GraphQLInputObjectType({
            name,
            description: `The ${relation.target} matching where (by ${relation.matchBy!.join(', ')}), else a new one made of create and where.`,
            fields: () => ({
              where: { type: new GraphQLNonNull(where) },
              ...(create ? { create: { type: new GraphQLNonNull(create.type) } } : {}),
            }),
          }),
          plan.typeName,
        );
      }
      case 'update': {
        const data = this.of(target.typeName, 'patch');
        if (!data) return undefined;
        const name = `${base}UpdateInput`;
        const existing = this.types.get(name);
        if (existing instanceof GraphQLInputObjectType) return existing;
        return this.types.add(
          new GraphQLInputObjectType({
            name,
            description: `An existing ${relation.target}, by its ${relation.key}, changed as a patch of it would be.`,
            fields: () => ({ where: { type: new GraphQLNonNull(key) }, data: { type: new GraphQLNonNull(data.type) } }),
          }),
          plan.typeName,
        );
      }
    }
  }

  /** A created member: the target's own create input, less what the write sets (a one-to-many member's way back). */
  private createOf(plan: EntityPlan, relation: NestedWriteDescription): WriteInput | undefined {
    const omit = setByParent(this.plans.get(relation.target)!, relation);
    if (omit.size === 0) return this.of(relation.target, 'create');
    return this.shaped(this.plans.get(relation.target)!, 'create', {
      name: `${plan.typeName}${pascal(relation.relation)}NestedCreateInput`,
      description: `A new ${relation.target} made with this ${plan.typeName}, which sets its ${[...omit].join(', ')}.`,
      omit,
      optional: false,
    });
  }

  /** A connect-or-create's new row: the create input with every field optional, the matched ones set from `where`. */
  private createIfMissingOf(plan: EntityPlan, relation: NestedWriteDescription): WriteInput | undefined {
    return this.shaped(this.plans.get(relation.target)!, 'create', {
      name: `${plan.typeName}${pascal(relation.relation)}NestedCreateIfMissingInput`,
      description: `The fields of the ${relation.target} made when none matches; the matched fields come from where.`,
      omit: setByParent(this.plans.get(relation.target)!, relation),
      optional: true,
    });
  }

  /** `connectOrCreate.where`: the unique fields the relation matches by, each required. */
  private matchType(plan: EntityPlan, relation: NestedWriteDescription): GraphQLInputObjectType {
    const name = `${plan.typeName}${pascal(relation.relation)}NestedMatchInput`;
    const existing = this.types.get(name);
    if (existing instanceof GraphQLInputObjectType) return existing;
    const target = this.plans.get(relation.target)!.description;
    const inputs: GraphQLInputFieldConfigMap = {};
    for (const field of relation.matchBy ?? []) {
      const column = target.fields.find((candidate) => candidate.name === field);
      const type = this.types.leaf({
        entity: target.name,
        field,
        kind: column?.kind ?? 'string',
        enumValues: column?.enumValues,
        key: target.primaryKeys.includes(field),
      });
      inputs[graphqlFieldName(field)] = { type: new GraphQLNonNull(type) };
    }
    return this.types.add(
      new GraphQLInputObjectType({
        name,
        description: `The ${relation.target} to connect, by its ${(relation.matchBy ?? []).join(', ')}.`,
        fields: inputs,
      }),
      plan.typeName,
    );
  }

  /** A nested relation's value as the body takes it: each element one form (or, to-one, a plain reference). */
  private nestedBody(plan: EntityPlan, relation: NestedWriteDescription, value: unknown, path: string): unknown {
    if (relation.many)
      return (value as readonly Value[]).map((one, index) => this.formBody(plan, relation, one, `${path}[${index}]`));
    return this.formBody(plan, relation, value as Value, path);
  }

  /** One element: exactly one form (two would be read as neither), its rows' bodies converted by their own inputs. */
  private formBody(plan: EntityPlan, relation: NestedWriteDescription, value: Value, path: string): Body {
    const target = this.plans.get(relation.target)!;
    const keyKind = kindOf(target, relation.key);
    const reference = this.referenceKey(plan, relation);
    const given = Object.keys(value);
    if (given.length !== 1) {
      const choices = [...(reference ? [reference] : []), ...this.formsOf(relation)].join(', ');
      const holds = given.length === 0 ? 'none' : given.join(', ');
      throw new ValidationFailedException([
        { field: path, code: 'invalid_value', detail: `must hold exactly one of ${choices}; it holds ${holds}.` },
      ]);
    }
    if (given[0] === reference) return { [reference]: keyValue(keyKind, value[reference]) };
    const form = given[0] as NestedWriteDescription['forms'][number];
    const inner = value[form] as Value | null;
    const at = `${path}.${form}`;
    if (inner === null) return { [form]: null };
    const key = (where: Value | null | undefined) =>
      where === null || where === undefined ? where : { [relation.key]: keyValue(keyKind, where[relation.key]) };
    switch (form) {
      case 'create':
        return { create: this.createOf(plan, relation)!.toBody(inner, `${at}.`) };
      case 'connect':
        return { connect: key(inner) };
      case 'connectOrCreate': {
        const where = inner['where'] as Value;
        const match = Object.fromEntries(
          (relation.matchBy ?? []).map((name) => {
            const field = where[graphqlFieldName(name)];
            return [name, typeof field === 'string' ? keyValue(kindOf(target, name), field) : field];
          }),
        );
        const create = inner['create'] as Value | undefined;
        const input = this.createIfMissingOf(plan, relation);
        return {
          connectOrCreate: { where: match, create: input && create ? input.toBody(create, `${at}.create.`) : {} },
        };
      }
      case 'update':
        return {
          update: {
            where: key(inner['where'] as Value),
            data: this.of(target.typeName, 'patch')!.toBody(inner['data'] as Value, `${at}.data.`),
          },
        };
    }
  }
}

const FORM_HELP: Readonly<Record<NestedWriteDescription['forms'][number], (target: string) => string>> = {
  create: (target) => `A new ${target}, created with this row.`,
  connect: (target) => `An existing ${target}, by its key.`,
  connectOrCreate: (target) => `The ${target} matching where, or a new one.`,
  update: (target) => `An existing ${target}, changed and connected.`,
};

/**
 * What the write sets on a created member rather than the body: the target's create fields the relation's JSON
 * Schema leaves out of its `create` form (a one-to-many member's relation back to the parent, and its column).
 */
function setByParent(target: EntityPlan, relation: NestedWriteDescription): ReadonlySet<string> {
  const one = (relation.many ? relation.schema['items'] : relation.schema) as Value | undefined;
  const options = (one?.['oneOf'] as readonly Value[] | undefined) ?? [];
  const create = options.map((option) => (option['properties'] as Value | undefined)?.['create']).find(Boolean) as
    Value | undefined;
  const properties = create?.['properties'] as Value | undefined;
  if (!properties) return NONE;
  return new Set(
    target.description.write.create.fields
      .map((field) => field.name)
      .filter((name) => !Object.hasOwn(properties, name)),
  );
}

function kindOf(plan: EntityPlan, field: string): ColumnKind {
  return (plan.description.fields.find((candidate) => candidate.name === field)?.kind as ColumnKind) ?? 'string';
}

function inputTypeOf(
  plan: EntityPlan,
  field: WriteFieldDescription,
  types: SchemaTypes,
): GraphQLScalarType | GraphQLEnumType | GraphQLInputObjectType {
  if (field.kind !== 'reference' || !field.target)
    return types.leaf({
      entity: plan.typeName,
      field: field.name,
      kind: field.kind as ColumnKind,
      enumValues: field.enumValues,
      key: plan.description.primaryKeys.includes(field.name),
    });
  return referenceType(field.target.entity, field.target.key, types);
}

/** `<Target>Reference`: `{ <key>: ID! }`, shared by the references of the write inputs and the nested connects. */
function referenceType(entity: string, key: string, types: SchemaTypes): GraphQLInputObjectType {
  const name = `${entity}Reference`;
  const existing = types.get(name);
  if (existing instanceof GraphQLInputObjectType) return existing;
  return types.add(
    new GraphQLInputObjectType({
      name,
      description: `An existing ${entity}, by its ${key}.`,
      fields: { [key]: { type: new GraphQLNonNull(GraphQLID) } },
    }),
    entity,
  );
}

/**
 * The body of the write: keys and references converted from `ID` text back to their column's kind. A relation with
 * nested writes is left as it is, for its forms to be converted.
 */
function toBody(value: Value, fields: ReadonlyMap<string, WriteFieldDescription>, nested: ReadonlySet<string>): Body {
  const body: Body = {};
  for (const [graphqlName, inner] of Object.entries(value)) {
    const field = fields.get(graphqlName);
    const name = field?.name ?? graphqlName;
    if (nested.has(name)) {
      body[name] = inner;
    } else if (field?.kind === 'reference' && field.target && inner !== null && typeof inner === 'object') {
      const { key, keyKind } = field.target;
      body[name] = { [key]: keyValue(keyKind, (inner as Value)[key]) };
    } else if (field && field.kind !== 'reference') {
      body[name] = typeof inner === 'string' ? keyValue(field.kind, inner) : inner;
    } else {
      body[name] = inner;
    }
  }
  return body;
}

/** `ID` arrives as text; an integer key is handed on as a number so the slot's checks see its own kind. */
export function keyValue(kind: ColumnKind, value: unknown): unknown {
  if (typeof value === 'string' && kind === 'integer' && /^-?\d{1,15}$/.test(value)) return Number(value);
  return value;
}
