/** Which body fields each write slot takes, which are stripped, which are required; built once at bootstrap. */
import type { FieldListSlot } from '../config/entity-config';
import { suggestion } from '../config/did-you-mean';
import { isPlainObject } from '../config/validate-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { ColumnMetadata, EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';
import type { BodyValidator } from './body-validators';

export type WriteSlot = 'create' | 'update' | 'patch';

export type WritableField =
  | { readonly kind: 'column'; readonly column: ColumnMetadata }
  | {
      readonly kind: 'relation';
      readonly relation: RelationMetadata;
      readonly targetKey: string;
      /** The target key as a column, to check reference ids by kind. */
      readonly keyColumn: ColumnMetadata;
    };

export interface WriteSchema {
  readonly slot: WriteSlot;
  readonly fields: ReadonlyMap<string, WritableField>;
  /**
   * Keys dropped silently (primary key, generated columns, the soft-delete marker, a column the ORM does not write in
   * this slot): a client may send back what it read.
   */
  readonly stripped: ReadonlySet<string>;
  /** Fields that must be present (create and the replace of update). */
  readonly required: readonly string[];
  /**
   * Create and the replace of update: each to-one reference that may not be null and is writable both as itself and
   * as its mapped foreign-key column, `[reference, column]`: a body sends one of the two (and never both, on any slot).
   */
  readonly requiredOneOf: readonly (readonly [reference: string, column: string])[];
  /** `required` and `requiredOneOf` as the body check asks them, one entry per thing the body must hold. */
  readonly requiredSets: readonly RequiredSet[];
  /** Update only: the value a writable field takes when the replace leaves it out. */
  readonly resets: ReadonlyMap<string, unknown>;
  /** A schema class or Standard Schema validator that checks and transforms the body before the field rules. */
  readonly validator?: BodyValidator;
  /** The JSON Schema (draft 2020-12) of the body, when a Standard Schema validator exposes one. */
  readonly jsonSchema?: Readonly<Record<string, unknown>>;
}

/**
 * One thing a write body must hold: any one of `sendable` (a required field; or a required reference and its
 * foreign-key column, when both are writable), or a value `set` forces for any of `fillable` (`set` returns columns,
 * so a required reference counts its foreign-key column there even when the body may not send it).
 */
export interface RequiredSet {
  readonly sendable: readonly string[];
  readonly fillable: readonly string[];
}

export function buildWriteSchema(args: {
  entity: string;
  metadata: EntityMetadata;
  slot: WriteSlot;
  list?: FieldListSlot;
}): WriteSchema {
  const { entity, metadata, slot } = args;
  const stripped = new Set<string>();
  const candidates = new Map<string, WritableField>();
  for (const column of metadata.columns) {
    const immutableKey = column.primary && (slot !== 'create' || column.generated);
    const unwritten = slot === 'create' ? column.insertable === false : column.updatable === false;
    if (immutableKey || unwritten || column.generated || column.deleteMarker) stripped.add(column.property);
    // A column of an embedded class is written by its path, as it is read (`'address.city'`).
    else candidates.set(column.property, { kind: 'column', column });
  }
  for (const relation of metadata.relations) {
    const toOne = relation.kind === 'many-to-one' || (relation.kind === 'one-to-one' && relation.owning);
    if (toOne && relation.joinColumns.length === 1) {
      const join = relation.joinColumns[0]!;
      // A reference is written through its foreign-key column: where the ORM does not write that column in this
      // slot, the reference is dropped with it.
      const mapped = metadata.columns.find((column) => column.property === join.property);
      if (mapped && (slot === 'create' ? mapped.insertable === false : mapped.updatable === false)) {
        stripped.add(relation.property);
        continue;
      }
      candidates.set(relation.property, {
        kind: 'relation',
        relation,
        targetKey: join.referencedProperty,
        keyColumn: {
          property: join.referencedProperty,
          kind: join.referencedKind ?? 'string',
          nullable: false,
          primary: true,
          generated: false,
          hasDefault: false,
          deleteMarker: false,
        },
      });
    }
  }
  const fields = restrict(entity, slot, candidates, stripped, args.list);
  const required: string[] = [];
  const requiredOneOf: [string, string][] = [];
  const resets = new Map<string, unknown>();
  if (slot !== 'patch') {
    for (const [name, field] of fields) {
      if (field.kind !== 'column') continue;
      const { column } = field;
      if (slot === 'update' && column.defaultValue !== undefined) resets.set(name, column.defaultValue);
      else if (slot === 'update' && column.hasDefault)
        continue; // an SQL-expression default has no literal to reset to
      else if (slot === 'update' && column.nullable) resets.set(name, null);
      else if (!column.nullable && !column.hasDefault && !hasMappedRelation(fields, column)) required.push(name);
    }
    // A reference the database needs: as one of the pair when its column is writable too, else as itself.
    for (const [name, field] of fields) {
      if (field.kind !== 'relation') continue;
      const column = foreignKeyColumn(metadata, name);
      if (column ? column.nullable || column.hasDefault : field.relation.nullable) continue;
      if (column && fields.has(column.property)) requiredOneOf.push([name, column.property]);
      else required.push(name);
    }
  }
  const requiredSets: RequiredSet[] = [
    ...required.map((name) => {
      const column = fields.get(name)?.kind === 'relation' ? foreignKeyColumn(metadata, name)?.property : undefined;
      return { sendable: [name], fillable: column === undefined ? [name] : [name, column] };
    }),
    ...requiredOneOf.map((pair) => ({ sendable: pair, fillable: pair })),
  ];
  return { slot, fields, stripped, required, requiredOneOf, requiredSets, resets };
}

/** The column mapped as the foreign key of a to-one relation, when the entity declares one. */
function foreignKeyColumn(metadata: EntityMetadata, relation: string): ColumnMetadata | undefined {
  return metadata.columns.find((column) => column.foreignKeyOf === relation);
}

function hasMappedRelation(fields: ReadonlyMap<string, WritableField>, column: ColumnMetadata): boolean {
  return column.foreignKeyOf !== undefined && fields.has(column.foreignKeyOf);
}

function restrict(
  entity: string,
  slot: WriteSlot,
  candidates: Map<string, WritableField>,
  stripped: ReadonlySet<string>,
  list: FieldListSlot | undefined,
): Map<string, WritableField> {
  if (list === undefined) return candidates;
  const path = `schema.input.${slot}`;
  const names = Array.isArray(list)
    ? list
    : isPlainObject(list) && Array.isArray((list as { fields?: unknown }).fields)
      ? (list as { fields: string[] }).fields
      : undefined;
  if (!names)
    throw new ConfigurationException({
      entity,
      path,
      message: 'must be an array of field names or { fields: [...] }.',
    });
  const out = new Map<string, WritableField>();
  for (const name of names) {
    const field = candidates.get(name);
    if (!field) {
      const why = stripped.has(name)
        ? 'is not writable (primary key, generated column, inheritance discriminator or soft-delete marker)'
        : `is not a writable field of ${entity}.${suggestion(name, candidates.keys())}`;
      throw new ConfigurationException({ entity, path, message: `'${name}' ${why}` });
    }
    out.set(name, field);
  }
  return out;
}
