/** Hand-written entity metadata for core's unit tests: a soft-delete Book, a hard-delete Note, a composite-key Membership. */
import type { ColumnMetadata, EntityMetadata, RelationMetadata } from '@svc/core/spi';

export class Book {}
export class Note {}
export class Author {}
export class Membership {}

/** A column with the usual defaults: nullable, not primary, not generated, no default. */
export function column(
  property: string,
  kind: ColumnMetadata['kind'],
  extra: Partial<ColumnMetadata> = {},
): ColumnMetadata {
  return {
    property,
    kind,
    nullable: true,
    primary: false,
    generated: false,
    hasDefault: false,
    deleteMarker: false,
    ...extra,
  };
}

const id = column('id', 'integer', { nullable: false, primary: true, generated: true, hasDefault: true });

/** Book columns: every kind the query grammar coerces, plus the `deletedAt` marker. */
export const BOOK_COLUMNS: readonly ColumnMetadata[] = [
  id,
  column('title', 'string', { nullable: false, length: 100 }),
  column('pages', 'integer', { nullable: false, hasDefault: true, defaultValue: 0 }),
  column('rating', 'number'),
  column('published', 'boolean', { nullable: false, hasDefault: true, defaultValue: false }),
  column('code', 'uuid'),
  column('releasedOn', 'date'),
  column('status', 'enum', { nullable: false, hasDefault: true, defaultValue: 'draft', enumValues: ['draft', 'live'] }),
  column('tenant', 'string'),
  column('extra', 'json'),
  column('createdAt', 'datetime', { nullable: false, generated: true, hasDefault: true }),
  column('deletedAt', 'datetime', { deleteMarker: true }),
];

export const BOOK_METADATA: EntityMetadata = {
  name: 'Book',
  target: Book,
  columns: BOOK_COLUMNS,
  primaryKeys: ['id'],
  relations: [],
  deleteMarker: 'deletedAt',
};

/** A hard-delete entity: no marker column. */
export const NOTE_METADATA: EntityMetadata = {
  name: 'Note',
  target: Note,
  columns: [
    id,
    column('body', 'string', { nullable: false }),
    column('pinned', 'boolean', { nullable: false, hasDefault: true, defaultValue: false }),
  ],
  primaryKeys: ['id'],
  relations: [],
};

const AUTHOR_RELATION: RelationMetadata = {
  property: 'author',
  kind: 'many-to-one',
  target: Author,
  targetName: 'Author',
  owning: true,
  nullable: true,
  joinColumns: [{ referencedProperty: 'id' }],
};

/** A Note with a relation and a json column, for identifier rules. */
export const LINKED_NOTE_METADATA: EntityMetadata = {
  ...NOTE_METADATA,
  columns: [...NOTE_METADATA.columns, column('slug', 'string'), column('data', 'json'), column('at', 'datetime')],
  relations: [AUTHOR_RELATION],
};

export const MEMBERSHIP_METADATA: EntityMetadata = {
  name: 'Membership',
  target: Membership,
  columns: [
    column('userId', 'integer', { nullable: false, primary: true }),
    column('groupId', 'integer', { nullable: false, primary: true }),
    column('role', 'string'),
  ],
  primaryKeys: ['userId', 'groupId'],
  relations: [],
};
