/**
 * Stamps `createdAt` and `updatedAt` to the millisecond on every insert and update TypeORM builds (Svc's writes
 * included). Left to the database, an update sets an `@UpdateDateColumn` to `CURRENT_TIMESTAMP`, which has whole
 * seconds on SQLite: an article updated within a second of its creation would keep its `updatedAt`.
 */
import {
  EventSubscriber,
  type EntityMetadata,
  type EntitySubscriberInterface,
  type InsertEvent,
  type ObjectLiteral,
  type UpdateEvent,
} from 'typeorm';

/** Listed in the DataSource's `subscribers` (the decorator only makes it one TypeORM can list). */
@EventSubscriber()
export class TimestampsSubscriber implements EntitySubscriberInterface {
  beforeInsert(event: InsertEvent<ObjectLiteral>): void {
    stamp(event.metadata, event.entity, 'insert');
  }

  beforeUpdate(event: UpdateEvent<ObjectLiteral>): void {
    stamp(event.metadata, event.entity, 'update');
  }
}

/** Sets the date columns the write leaves out, in the values the builder is about to write. */
function stamp(metadata: EntityMetadata, values: ObjectLiteral | undefined, write: 'insert' | 'update'): void {
  if (!values) return;
  const now = new Date();
  const columns =
    write === 'insert' ? [metadata.createDateColumn, metadata.updateDateColumn] : [metadata.updateDateColumn];
  for (const column of columns) {
    if (column && values[column.propertyName] === undefined) values[column.propertyName] = now;
  }
}
