/** Shapes core's write values for TypeORM's insert and update builders. */
import type { Row } from '@svc/core';
import type { EntityTable } from './entity-table';

/**
 * `values` with each to-one relation written through its mapped foreign-key property: `{ author: { id: 7 } }` and
 * `{ author: null }` become `{ authorId: 7 }` and `{ authorId: null }`. A relation without a mapped FK property is kept
 * as the relation, which TypeORM writes to its join column.
 */
export function toEntityValues(values: Row, table: EntityTable): Row {
  const out: Row = {};
  for (const [property, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (table.column(property)) {
      out[property] = value;
      continue;
    }
    const relation = table.relation(property);
    if (!relation?.toOne) {
      throw new Error(
        `@svc/typeorm: '${property}' is not a column or an owning to-one relation of ${table.name}; ` +
          'the adapter writes only those. Write other relations through their own entity.',
      );
    }
    if (relation.foreignKeys.length === 0) {
      out[property] = value;
      continue;
    }
    for (const fk of relation.foreignKeys) {
      out[fk.property] = value === null || typeof value !== 'object' ? value : (value as Row)[fk.referencedProperty];
    }
  }
  return out;
}

/**
 * `values` with a client-side uuid in each generated uuid column it leaves out, where the database does not generate
 * them (all but PostgreSQL), as TypeORM's insert builder fills them: a key is then known without a re-read, and the
 * adapter's own INSERT stores what the builder would. Mutates and returns `values`.
 */
export function withGeneratedUuids(values: Row, table: EntityTable): Row {
  for (const column of table.clientUuids) {
    if (values[column.property] === undefined) values[column.property] = globalThis.crypto.randomUUID();
  }
  return values;
}

/**
 * `values` as TypeORM's insert and update builders take them: a column of an embedded class, which core names by its
 * path (`'address.city'`), set inside its embedded object (`{ address: { city } }`). The same object where the entity
 * has no embedded columns.
 *
 * The objects are plain, holding only the values given: TypeORM's own `setEntityValue` would make an instance of the
 * embedded class, whose field initializers (and, under define-style class fields, every declared field) the update
 * builder would then SET too, overwriting the row's other columns of that class.
 */
export function forBuilder(values: Row, table: EntityTable): Row {
  if (!table.embedded) return values;
  const out: Row = {};
  for (const [property, value] of Object.entries(values)) {
    const orm = table.column(property)?.orm;
    if (!orm?.embeddedMetadata) {
      out[property] = value;
      continue;
    }
    let level = out;
    for (const name of orm.embeddedMetadata.parentPropertyNames) {
      const inner = level[name];
      level = (level[name] = inner !== null && typeof inner === 'object' ? inner : {}) as Row;
    }
    level[orm.propertyName] = value;
  }
  return out;
}
