/**
 * Cached reads of computed values stay fresh: a virtual column whose query counts another table's rows, and a view
 * over another entity's table (and a view over that view), are dropped from the result cache by a write to the
 * entities they are computed from (`cache.dependsOn`, a view's `dependsOn`). Caching such values without naming their
 * sources is refused at bootstrap, as is a soft delete through a delete-date column declared `update: false`.
 */
import request from 'supertest';
import {
  Column,
  DataSource,
  DeleteDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  ViewColumn,
  ViewEntity,
  VirtualColumn,
} from 'typeorm';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

/** The slot table as the virtual column's query must name it: schema-qualified on PostgreSQL (set once booted). */
let slotTable = 'computed_cache_slot';

@Entity('computed_cache_slot')
class Slot {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', name: 'shelf_id' }) shelfId!: number;
}

@Entity('computed_cache_shelf')
class Shelf {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @VirtualColumn({
    type: 'int',
    query: (alias) => `SELECT COUNT(*) FROM ${slotTable} WHERE ${slotTable}.shelf_id = ${alias}.id`,
  })
  slotCount!: number;
}

@ViewEntity({
  name: 'computed_cache_shelf_names',
  dependsOn: [Shelf],
  expression: (dataSource: DataSource) =>
    dataSource.createQueryBuilder().select('shelf.id', 'id').addSelect('shelf.name', 'name').from(Shelf, 'shelf'),
})
class ShelfName {
  @ViewColumn() id!: number;
  @ViewColumn() name!: string;
}

/** A view over the view above: a write to a shelf changes its rows too. */
@ViewEntity({
  name: 'computed_cache_shelf_labels',
  dependsOn: [ShelfName],
  expression: (dataSource: DataSource) =>
    dataSource.createQueryBuilder().select('n.id', 'id').addSelect('n.name', 'label').from(ShelfName, 'n'),
})
class ShelfLabel {
  @ViewColumn() id!: number;
  @ViewColumn() label!: string;
}

/** A view that names none of its sources. */
@ViewEntity({
  name: 'computed_cache_shelf_ids',
  expression: (dataSource: DataSource) => dataSource.createQueryBuilder().select('shelf.id', 'id').from(Shelf, 'shelf'),
})
class ShelfId {
  @ViewColumn() id!: number;
}

@Entity('computed_cache_archive')
class Archive {
  @PrimaryGeneratedColumn() id!: number;
  @DeleteDateColumn({ update: false }) deletedAt!: Date | null;
}

const READS = { findMany: true, findOne: true } as const;

describe.each(TEST_DATABASES)('cached computed values on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_computed_cache',
      entities: [Slot, Shelf, ShelfName, ShelfLabel],
      controllers: [
        svcController('shelves', Shelf, { cache: { ttl: 60, dependsOn: [Slot] } }),
        svcController('slots', Slot),
        svcController('shelf-names', ShelfName, { operations: { findMany: true }, cache: { ttl: 60 } }),
        svcController('shelf-labels', ShelfLabel, { operations: { findMany: true }, cache: { ttl: 60 } }),
      ],
    });
    const metadata = t.dataSource.getMetadata(Slot);
    slotTable = metadata.schema ? `"${metadata.schema}"."${metadata.tableName}"` : metadata.tableName;
  });
  afterAll(async () => {
    await t?.close();
    slotTable = 'computed_cache_slot';
  });

  it('drops a cached virtual column when a row of the entity it counts is written', async () => {
    const shelf = (await request(t.server).post('/shelves').send({ name: 'top' }).expect(201)).body.id as number;
    expect((await request(t.server).get(`/shelves/${shelf}`)).body.slotCount).toBe(0);
    expect((await request(t.server).get('/shelves')).body.items).toContainEqual({
      id: shelf,
      name: 'top',
      slotCount: 0,
    });
    await request(t.server).post('/slots').send({ shelfId: shelf }).expect(201);
    expect((await request(t.server).get(`/shelves/${shelf}`)).body.slotCount).toBe(1);
    expect((await request(t.server).get('/shelves')).body.items).toContainEqual({
      id: shelf,
      name: 'top',
      slotCount: 1,
    });
  });

  it("drops a cached view's rows, and those of a view over it, when the table under them is written", async () => {
    const shelf = (await request(t.server).post('/shelves').send({ name: 'left' }).expect(201)).body.id as number;
    expect((await request(t.server).get('/shelf-names')).body.items).toContainEqual({ id: shelf, name: 'left' });
    expect((await request(t.server).get('/shelf-labels')).body.items).toContainEqual({ id: shelf, label: 'left' });
    await request(t.server).patch(`/shelves/${shelf}`).send({ name: 'right' }).expect(200);
    expect((await request(t.server).get('/shelf-names')).body.items).toContainEqual({ id: shelf, name: 'right' });
    expect((await request(t.server).get('/shelf-labels')).body.items).toContainEqual({ id: shelf, label: 'right' });
  });

  it('refuses at bootstrap to cache computed values whose sources are not named', async () => {
    const virtual = await bootstrapFailure({
      db,
      suite: 'e2e_computed_cache_virtual',
      entities: [Slot, Shelf],
      controllers: [svcController('shelves', Shelf, { cache: { ttl: 60 } })],
    });
    expect(virtual.message).toContain("the virtual column 'slotCount'");
    expect(virtual.message).toContain('cache.dependsOn');
    const view = await bootstrapFailure({
      db,
      suite: 'e2e_computed_cache_view',
      entities: [Shelf, Slot, ShelfId],
      controllers: [svcController('shelf-ids', ShelfId, { operations: { findMany: true }, cache: { ttl: 60 } })],
    });
    expect(view.message).toContain('reads a database view');
    expect(view.message).toContain("the view's dependsOn");
    const notEntity = await bootstrapFailure({
      db,
      suite: 'e2e_computed_cache_class',
      entities: [Slot, Shelf],
      controllers: [svcController('shelves', Shelf, { cache: { ttl: 60, dependsOn: [class Stranger {}] } })],
    });
    expect(notEntity.message).toContain('Stranger, which is not an entity');
  });

  it('boots a cached virtual column whose query reads its own table, said with dependsOn: []', async () => {
    const own = await createTestApp({
      db,
      suite: 'e2e_computed_cache_own',
      entities: [Slot, Shelf],
      controllers: [svcController('shelves', Shelf, { cache: { ttl: 60, dependsOn: [] } })],
    });
    await own.close();
  });

  it("refuses at bootstrap a soft delete through the ORM's delete-date column declared update: false", async () => {
    const error = await bootstrapFailure({
      db,
      suite: 'e2e_computed_cache_archive',
      entities: [Archive],
      controllers: [svcController('archives', Archive)],
    });
    expect(error.message).toContain("delete-date column 'deletedAt', which is declared update: false");
    // Served without a delete, it boots.
    const readOnly = await createTestApp({
      db,
      suite: 'e2e_computed_cache_archive_reads',
      entities: [Archive],
      controllers: [svcController('archives', Archive, { operations: READS })],
    });
    await readOnly.close();
  });
});
