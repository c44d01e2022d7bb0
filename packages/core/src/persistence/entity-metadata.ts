/** What core needs to know of an entity, as an adapter reads it from its ORM. */

/** A column's kind decides value coercion, validation and which operators make sense. */
export type ColumnKind =
  'string' | 'uuid' | 'integer' | 'number' | 'bigint' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'json' | 'enum';

export interface ColumnMetadata {
  /** Property name on the entity class (the public field name). */
  readonly property: string;
  readonly kind: ColumnKind;
  readonly nullable: boolean;
  readonly primary: boolean;
  /**
   * Written by the database or the ORM, never by a client (auto-increment, uuid generation, create/update date,
   * version, the discriminator of single-table inheritance).
   */
  readonly generated: boolean;
  /** The database or the ORM supplies a value when none is written. */
  readonly hasDefault: boolean;
  /** The default as a literal value, when the column declares one that is not an SQL expression. */
  readonly defaultValue?: unknown;
  /** The soft-delete marker column (a delete-date column). */
  readonly deleteMarker: boolean;
  /** Maximum length for string kinds, when declared. */
  readonly length?: number;
  /**
   * For `decimal` columns: how many digits the database keeps in all, when it keeps a fixed number (a declared
   * precision, or the database's default for an undeclared one, such as MySQL's 10). Undefined: no limit is known.
   */
  readonly precision?: number;
  /** For `decimal` columns with a known `precision`: how many of its digits come after the point. */
  readonly scale?: number;
  /** Allowed values for `enum` columns. */
  readonly enumValues?: readonly (string | number)[];
  /** The relation this column is the foreign key of, when it is mapped as its own property. */
  readonly foreignKeyOf?: string;
  /** The column holds a list of values (its kind is then `json`). */
  readonly list?: ColumnList;
  /**
   * The ORM leaves the column out of a read unless it is asked for by name (TypeORM's `select: false`, the usual way
   * to keep a password hash or a token out of every result): it is served only when `select.fields` lists it.
   */
  readonly hidden?: boolean;
  /**
   * A column of an embedded class (TypeORM's `@Column(() => Address) address`), named by its path (`address.city`).
   * It is served on reads; it is not writable and not on the default filter, sort, search or aggregate lists, which
   * would take the path for a relation.
   */
  readonly embedded?: boolean;
  /**
   * Computed by a query on every read (TypeORM's `@VirtualColumn`): served on reads, never written, and not on the
   * default filter, sort, search or aggregate lists, where the database has no such column to compare.
   */
  readonly virtual?: boolean;
  /** A field of the entity's `computed` config (virtual as well): its SQL is rendered per call, for the caller. */
  readonly computed?: boolean;
  /** False where the ORM never writes the column on insert (TypeORM's `insert: false`): a create drops a value for it. */
  readonly insertable?: false;
  /**
   * False where the ORM never writes the column on update (TypeORM's `update: false`, a value set once): an update or
   * a patch drops a value for it, as for the primary key, so a client may send back what it read.
   */
  readonly updatable?: false;
}

/**
 * What a list column holds (TypeORM's `simple-array`, or an array column on PostgreSQL): values of kind `of`, never
 * null; and a `simple-array`, which joins its values with commas, takes no value that holds its `separator`.
 */
export interface ColumnList {
  readonly of: ColumnKind;
  readonly separator?: string;
}

export type RelationKind = 'many-to-one' | 'one-to-one' | 'one-to-many' | 'many-to-many';

export interface RelationMetadata {
  readonly property: string;
  readonly kind: RelationKind;
  /** Target entity class. */
  readonly target: Function;
  readonly targetName: string;
  /** This side holds the foreign key (to-one) or the join table (many-to-many). */
  readonly owning: boolean;
  readonly nullable: boolean;
  /** For an owning to-one: foreign-key columns, each with the mapped property (if any) and the target key it references. */
  readonly joinColumns: readonly {
    readonly property?: string;
    readonly referencedProperty: string;
    /** Kind of the referenced target column, so a reference id is checked before it reaches the database. */
    readonly referencedKind?: ColumnKind;
  }[];
  /** The target's relation back to this entity, when the ORM knows it (a one-to-many's many-to-one). */
  readonly inverse?: string;
  /**
   * The target's hidden columns (see `ColumnMetadata.hidden`): an included row of a target no entity serves leaves
   * them out, as TypeORM loads a relation without them.
   */
  readonly hiddenTargetFields?: readonly string[];
  /**
   * The target's columns of embedded classes, by their paths (`address.city`): where no entity serves the target, a
   * `select[<relation>]` may name them though they hold a dot.
   */
  readonly embeddedTargetFields?: readonly string[];
}

export interface EntityMetadata {
  readonly name: string;
  readonly target: Function;
  readonly columns: readonly ColumnMetadata[];
  /** Primary-key properties, in key order. */
  readonly primaryKeys: readonly string[];
  readonly relations: readonly RelationMetadata[];
  /** Property of the soft-delete marker column, when the entity has one. */
  readonly deleteMarker?: string;
  /**
   * The column sets the database keeps unique (unique columns, unique indices and constraints), each in property
   * names; the primary key is not repeated here. Omitted: the adapter cannot tell.
   */
  readonly uniques?: readonly (readonly string[])[];
  /** The entity reads a database view (TypeORM's `@ViewEntity`): its rows are read, never written. */
  readonly view?: boolean;
  /**
   * The entities (by name) whose rows the ORM says this entity's rows are computed from (a view's `dependsOn`), so a
   * write to one of them changes what a read of this entity answers. Omitted: the ORM names none.
   */
  readonly readsFrom?: readonly string[];
}

/** The primary-key values of one row, by property. */
export type EntityKey = Readonly<Record<string, unknown>>;
