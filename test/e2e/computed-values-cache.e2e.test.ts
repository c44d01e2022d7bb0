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
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  ViewColumn,
  ViewEntity,
  VirtualColumn,
} from 'typeorm';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

/** The slot table as the virtual column's query must name it: schema-qualified on PostgreSQL (set once booted). */
let slotTable = 'computed_cache_slot';
/** The view of shelf labels as a query must name it (set once booted). */
let labelView = 'computed_cache_shelf_labels';

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

/** Keeps a shelf: includes it, with its computed slot count. */
@Entity('computed_cache_keeper')
class Keeper {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', name: 'shelf_id' }) shelfId!: number;
  @ManyToOne(() => Shelf) @JoinColumn({ name: 'shelf_id' }) shelf!: Shelf;
}

/** Reads the view of shelf labels, which no controller serves, through cache.dependsOn. */
@Entity('computed_cache_report')
class Report {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) title!: string;
  @VirtualColumn({
    type: 'int',
    query: (alias) => `SELECT COUNT(*) FROM ${labelView} WHERE ${labelView}.label = ${alias}.title`,
  })
  matches!: number;
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
      entities: [Slot, Shelf, ShelfName, ShelfLabel, Keeper],
      controllers: [
        svcController('shelves', Shelf, { cache: { ttl: 60, dependsOn: [Slot] } }),
        svcController('slots', Slot),
        svcController('shelf-names', ShelfName, { operations: { findMany: true }, cache: { ttl: 60 } }),
        svcController('shelf-labels', ShelfLabel, { operations: { findMany: true }, cache: { ttl: 60 } }),
        svcController('keepers', Keeper, { include: { fields: ['shelf'] }, cache: { ttl: 60, dependsOn: [Slot] } }),
      ],
    });
    const metadata = t.dataSource.getMetadata(Slot);
    slotTable = metadata.schema ? `"${metadata.schema}"."${metadata.tableName}"` : metadata.tableName;
  });
  afterAll(async () => {
    await t?.close();
    slotTable = 'computed_cache_slot';
    labelView = 'computed_cache_shelf_labels';
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

  it('drops cached rows that include a computed value, and those computed from a view named in cache.dependsOn', async () => {
    const shelf = (await request(t.server).post('/shelves').send({ name: 'mid' }).expect(201)).body.id as number;
    const keeper = (await request(t.server).post('/keepers').send({ shelfId: shelf }).expect(201)).body.id as number;
    expect((await request(t.server).get(`/keepers/${keeper}?include=shelf`)).body.shelf.slotCount).toBe(0);
    await request(t.server).post('/slots').send({ shelfId: shelf }).expect(201);
    expect((await request(t.server).get(`/keepers/${keeper}?include=shelf`)).body.shelf.slotCount).toBe(1);
    // The label view is over the name view, over the shelf table; neither view is served here, so only the
    // report's cache.dependsOn can say that a new shelf named 'low' is one more match.
    const views = await createTestApp({
      db,
      suite: 'e2e_computed_cache_views',
      entities: [Slot, Shelf, ShelfName, ShelfLabel, Report],
      controllers: [
        svcController('shelves', Shelf, { cache: { ttl: 60, dependsOn: [Slot] } }),
        svcController('reports', Report, { cache: { ttl: 60, dependsOn: [ShelfLabel] } }),
      ],
    });
    const view = views.dataSource.getMetadata(ShelfLabel);
    labelView = view.schema ? `"${view.schema}"."${view.tableName}"` : view.tableName;
    try {
      const report = (await request(views.server).post('/reports').send({ title: 'low' }).expect(201)).body.id;
      expect((await request(views.server).get(`/reports/${report}`)).body.matches).toBe(0);
      await request(views.server).post('/shelves').send({ name: 'low' }).expect(201);
      expect((await request(views.server).get(`/reports/${report}`)).body.matches).toBe(1);
    } finally {
      await views.close();
    }
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
    const including = await bootstrapFailure({
      db,
      suite: 'e2e_computed_cache_including',
      entities: [Slot, Shelf, Keeper],
      controllers: [svcController('keepers', Keeper, { include: { fields: ['shelf'] }, cache: { ttl: 60 } })],
    });
    expect(including.message).toContain("the virtual column 'slotCount' of Shelf");
    // A virtual column the reads do not serve computes nothing they answer.
    const unserved = await createTestApp({
      db,
      suite: 'e2e_computed_cache_unserved',
      entities: [Slot, Shelf],
      controllers: [svcController('shelves', Shelf, { select: { fields: ['id', 'name'] }, cache: { ttl: 60 } })],
    });
    await unserved.close();
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
