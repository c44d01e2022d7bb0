/**
 * TypeORM column and entity options that change what may be written, honoured on every database: a column with
 * `update: false` is set on create and dropped from an update or a patch (as a key is), one with `insert: false` is
 * dropped from a create; the columns of an embedded class are written, filtered, sorted, searched and grouped by their
 * paths (`address.city`), as they are read; a virtual column is read by its query and never
 * written; a generated (`asExpression`) column is read and compared, never written; and an entity over a view serves
 * reads only.
 */
import type { SvcContext } from '@svc/core';
import request from 'supertest';
import {
  Column,
  DataSource,
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

const headerOf = (context: SvcContext, name: string) =>
  (context.request as { headers: Record<string, string | undefined> } | undefined)?.headers[name];

class Address {
  @Column({ type: 'varchar', length: 40, nullable: true }) city!: string | null;
  @Column({ type: 'varchar', length: 10, nullable: true }) zip!: string | null;
}

@Entity('column_options_item')
class Item {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @Column({ type: 'varchar', length: 40, update: false }) sku!: string;
  @Column({ type: 'varchar', length: 40, insert: false, default: 'warehouse' }) origin!: string;
  @Column(() => Address) address!: Address;
}

class Money {
  @Column({ type: 'int' }) amount!: number;
  /** An initializer: a write of the amount alone must not write it. */
  @Column({ type: 'varchar', length: 3 }) currency: string = 'EUR';
}

@Entity('column_options_priced')
class Priced {
  @PrimaryGeneratedColumn() id!: number;
  @Column(() => Money) price!: Money;
}

/** Ordered at a price: filtered and sorted by the price's embedded columns, through the relation. */
@Entity('column_options_order')
class Order {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', name: 'priced_id' }) pricedId!: number;
  @ManyToOne(() => Priced) @JoinColumn({ name: 'priced_id' }) priced!: Priced;
}

/** A column the database computes from another (`asExpression`): read and compared, never written. */
@Entity('column_options_sheet')
class Sheet {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', name: 'pages' }) pages!: number;
  @Column({
    type: 'int',
    name: 'sides',
    asExpression: 'pages * 2',
    generatedType: 'STORED',
  })
  sides!: number;
}

@Entity('column_options_shelf')
class Shelf {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @VirtualColumn({ type: 'int', query: (alias) => `SELECT LENGTH(${alias}.name)` }) nameLength!: number;
}

@Entity('column_options_slot')
class Slot {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', name: 'shelf_id', update: false }) shelfId!: number;
  @ManyToOne(() => Shelf) @JoinColumn({ name: 'shelf_id' }) shelf!: Shelf;
}

@ViewEntity({
  name: 'column_options_item_names',
  expression: (dataSource: DataSource) =>
    dataSource.createQueryBuilder().select('item.id', 'id').addSelect('item.name', 'name').from(Item, 'item'),
})
class ItemName {
  @ViewColumn() id!: number;
  @ViewColumn() name!: string;
}

@Entity('column_options_archive')
class Archive {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: Date, nullable: true, update: false }) removedAt!: Date | null;
}

/** A view with no primary key: its rows can be listed, not read by id. */
@ViewEntity({
  name: 'column_options_item_skus',
  expression: (dataSource: DataSource) => dataSource.createQueryBuilder().select('item.sku', 'sku').from(Item, 'item'),
})
class ItemSku {
  @ViewColumn() sku!: string;
}

describe.each(TEST_DATABASES)('TypeORM column options on $name', (db) => {
  let t: TestApp;
  let id: number;
  const stored = () => t.dataSource.getRepository(Item).findOneByOrFail({ id });

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_column_options',
      entities: [Item, ItemName, Shelf, Slot, Priced, Sheet, Order],
      controllers: [
        svcController('items', Item, { batch: { create: true } }),
        svcController('priced', Priced, { search: {}, aggregate: { groupBy: ['price.currency'] } }),
        svcController('priced-pages', Priced, { pagination: { strategy: 'cursor' } }),
        svcController('priced-batch', Priced, { batch: { update: true } }),
        svcController('sheets', Sheet, { batch: { create: true } }),
        svcController('orders', Order, {
          include: { fields: ['priced'] },
          filter: { fields: ['id', 'priced.price.currency'] },
          sort: { fields: ['id', 'priced.price.amount'] },
        }),
        svcController('shelves', Shelf, { batch: { create: true } }),
        svcController('slots', Slot, { include: { fields: ['shelf'] } }),
        svcController('item-names', ItemName, { operations: { findMany: true } }),
        svcController('set-items', Item, {
          set: ({ context, operation }) => ({
            sku: `SET-${operation}`,
            ...(headerOf(context, 'x-origin') ? { origin: 'x' } : {}),
          }),
        }),
        svcController('set-shelves', Shelf, { set: () => ({ nameLength: 1 }) }),
      ],
    });
    id = (await t.dataSource.getRepository(Item).save({ name: 'lamp', sku: 'L-1', address: { city: 'Lyon' } })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('drops an update: false column from a patch and an update, as it drops the key', async () => {
    const patched = await request(t.server).patch(`/items/${id}`).send({ name: 'lamp 2', sku: 'L-2' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'lamp 2', sku: 'L-1' });
    const replaced = await request(t.server).put(`/items/${id}`).send({ name: 'lamp 3', sku: 'L-3' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'lamp 3', sku: 'L-1' });
    expect(await stored()).toMatchObject({ name: 'lamp 3', sku: 'L-1' });
  });

  it('stores an update: false column on create and drops an insert: false one, whose default applies', async () => {
    const created = await request(t.server).post('/items').send({ name: 'desk', sku: 'D-1', origin: 'client' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'desk', sku: 'D-1', origin: 'warehouse' });
    await request(t.server).delete(`/items/${created.body.id}`).expect(204);
  });

  it('keeps set to what the ORM writes: an update: false value on update stays as stored, an insert: false or virtual one is refused', async () => {
    const created = await request(t.server).post('/set-items').send({ name: 'fan', sku: 'F-1' });
    expect(created.status).toBe(201);
    expect(created.body.sku).toBe('SET-createOne');
    const replaced = await request(t.server).put(`/set-items/${created.body.id}`).send({ name: 'fan 2', sku: 'F-2' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'fan 2', sku: 'SET-createOne' });
    await request(t.server).delete(`/items/${created.body.id}`).expect(204);
    const lost = await request(t.server).post('/set-items').set('x-origin', '1').send({ name: 'origin', sku: 'O-1' });
    expect(lost.status).toBe(500);
    expect(lost.body.code).toBe('SVC_CONFIG_INVALID');
    expect(await t.dataSource.getRepository(Item).countBy({ name: 'origin' })).toBe(0);
    const virtual = await request(t.server).post('/set-shelves').send({ name: 'side' });
    expect(virtual.status).toBe(500);
    expect(await t.dataSource.getRepository(Shelf).countBy({ name: 'side' })).toBe(0);
  });

  it('serves the columns of an embedded class under their paths', async () => {
    // The replace above reset the address, which it did not send.
    await t.dataSource.getRepository(Item).update({ id }, { address: { city: 'Lyon' } });
    const read = await request(t.server).get(`/items/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ 'address.city': 'Lyon', 'address.zip': null });
  });

  it('writes the columns of an embedded class by their paths: create, patch, put and batch', async () => {
    const created = await request(t.server)
      .post('/items')
      .send({ name: 'chair', sku: 'C-1', 'address.city': 'Nice', 'address.zip': '06000' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'chair', 'address.city': 'Nice', 'address.zip': '06000' });
    const chair = created.body.id as number;
    const patched = await request(t.server).patch(`/items/${chair}`).send({ 'address.city': 'Nîmes' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ 'address.city': 'Nîmes', 'address.zip': '06000' });
    const stored = await t.dataSource.getRepository(Item).findOneByOrFail({ id: chair });
    expect(stored.address).toEqual({ city: 'Nîmes', zip: '06000' });
    // A replace resets what it leaves out, an embedded column too.
    const replaced = await request(t.server).put(`/items/${chair}`).send({ name: 'chair', 'address.zip': '30000' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ 'address.city': null, 'address.zip': '30000' });
    const batch = await request(t.server)
      .post('/items/batch')
      .send([
        { name: 'stool', sku: 'S-1', 'address.city': 'Pau' },
        { name: 'bench', sku: 'B-1' },
      ]);
    expect(batch.status).toBe(201);
    expect(batch.body.items).toMatchObject([
      { name: 'stool', 'address.city': 'Pau', 'address.zip': null },
      { name: 'bench', 'address.city': null },
    ]);
    const read = await request(t.server).get(`/items/${batch.body.items[0].id}`);
    expect(read.body['address.city']).toBe('Pau');
    const tooLong = await request(t.server).patch(`/items/${chair}`).send({ 'address.zip': '12345678901' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ field: 'address.zip' })]);
    for (const item of [chair, ...batch.body.items.map((row: { id: number }) => row.id)])
      await request(t.server).delete(`/items/${item}`).expect(204);
  });

  it('requires the NOT NULL columns of an embedded class on create, by their paths', async () => {
    const missing = await request(t.server).post('/priced').send({ 'price.amount': 5 });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'price.currency', code: 'required' })]);
    const wrongKind = await request(t.server).post('/priced').send({ 'price.amount': 'five', 'price.currency': 'EUR' });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.errors).toEqual([expect.objectContaining({ field: 'price.amount' })]);
    expect(await t.dataSource.getRepository(Priced).count()).toBe(0);
    const created = await request(t.server).post('/priced').send({ 'price.amount': 5, 'price.currency': 'EUR' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), 'price.amount': 5, 'price.currency': 'EUR' });
    const dollars = await request(t.server).post('/priced').send({ 'price.amount': 8, 'price.currency': 'USD' });
    const amount = await request(t.server).patch(`/priced/${dollars.body.id}`).send({ 'price.amount': 9 });
    expect(amount.body).toMatchObject({ 'price.amount': 9, 'price.currency': 'USD' });
    const many = await request(t.server)
      .patch(`/priced-batch?filter[id][eq]=${dollars.body.id}`)
      .send({ 'price.amount': 10 });
    expect(many.status).toBe(200);
    expect((await t.dataSource.getRepository(Priced).findOneByOrFail({ id: dollars.body.id })).price).toEqual({
      amount: 10,
      currency: 'USD',
    });
    const nulled = await request(t.server).patch(`/priced/${created.body.id}`).send({ 'price.amount': null });
    expect(nulled.status).toBe(400);
    expect((await t.dataSource.getRepository(Priced).findOneByOrFail({ id: created.body.id })).price.amount).toBe(5);
  });

  it('filters, sorts, searches and groups by the columns of an embedded class, by their paths', async () => {
    const priced = t.dataSource.getRepository(Priced);
    const clear = (target: Function) => t.dataSource.createQueryBuilder().delete().from(target).execute();
    await clear(Priced);
    await priced.save([
      { price: { amount: 3, currency: 'USD' } },
      { price: { amount: 7, currency: 'EUR' } },
      { price: { amount: 2, currency: 'EUR' } },
    ]);
    const euros = await request(t.server).get('/priced?filter[price.currency][eq]=EUR&sort=-price.amount');
    expect(euros.status).toBe(200);
    expect(euros.body.items.map((row: Record<string, unknown>) => row['price.amount'])).toEqual([7, 2]);
    const over = await request(t.server).get('/priced?filter[price.amount][gt]=2&sort=price.currency,price.amount');
    expect(over.body.items.map((row: Record<string, unknown>) => row['price.currency'])).toEqual(['EUR', 'USD']);
    const searched = await request(t.server).get('/priced?search[query]=us');
    expect(searched.body.items).toEqual([expect.objectContaining({ 'price.currency': 'USD' })]);
    const cursor = await request(t.server).get('/priced-pages?sort=price.amount&limit=2');
    expect(cursor.status).toBe(200);
    expect(cursor.body.items.map((row: Record<string, unknown>) => row['price.amount'])).toEqual([2, 3]);
    const next = await request(t.server).get(
      `/priced-pages?sort=price.amount&limit=2&cursor=${encodeURIComponent(cursor.body.meta.nextCursor)}`,
    );
    expect(next.body.items.map((row: Record<string, unknown>) => row['price.amount'])).toEqual([7]);
    const grouped = await request(t.server).get(
      '/priced/aggregate?groupBy=price.currency&sum=price.amount&sort=price.currency',
    );
    expect(grouped.status).toBe(200);
    expect(grouped.body.items).toEqual([
      { group: { 'price.currency': 'EUR' }, count: 2, sum: { 'price.amount': 9 } },
      { group: { 'price.currency': 'USD' }, count: 1, sum: { 'price.amount': 3 } },
    ]);
    const [cheap, dear] = await priced.find({ where: { price: { currency: 'EUR' } }, order: { id: 'ASC' } });
    const orders = t.dataSource.getRepository(Order);
    await orders.save([{ pricedId: dear!.id }, { pricedId: cheap!.id }]);
    const through = await request(t.server).get(
      '/orders?filter[priced.price.currency][eq]=EUR&sort=-priced.price.amount',
    );
    expect(through.status).toBe(200);
    expect(through.body.items.map((row: { pricedId: number }) => row.pricedId)).toEqual([cheap!.id, dear!.id]);
    // Priced is served here, so the include projects by its select.fields (a target no entity serves: the
    // embedded-columns suite's depots).
    const included = await request(t.server).get(
      `/orders?include=priced&select[priced]=price.currency&filter[priced.price.currency][eq]=EUR&sort=id`,
    );
    expect(included.status).toBe(200);
    expect(included.body.items[0].priced).toEqual({ 'price.currency': 'EUR' });
    await clear(Order);
    const unknown = await request(t.server).get('/priced?filter[price.cents][eq]=1');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].param).toBe('filter[price.cents]');
    await clear(Priced);
  });

  it('reads a generated (asExpression) column as the database computes it, filters and sorts by it, and never writes it', async () => {
    const created = await request(t.server).post('/sheets').send({ pages: 3 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), pages: 3, sides: 6 });
    const patched = await request(t.server).patch(`/sheets/${created.body.id}`).send({ pages: 5 });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ id: created.body.id, pages: 5, sides: 10 });
    const batch = await request(t.server)
      .post('/sheets/batch')
      .send([{ pages: 1 }, { pages: 8 }]);
    expect(batch.status).toBe(201);
    expect(batch.body.items.map((row: { sides: number }) => row.sides)).toEqual([2, 16]);
    const listed = await request(t.server).get('/sheets?filter[sides][gte]=10&sort=-sides');
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((row: { sides: number }) => row.sides)).toEqual([16, 10]);
    // A value sent for it is left out, as for any column the database writes: what it stores is its own.
    const sent = await request(t.server).post('/sheets').send({ pages: 4, sides: 99 });
    expect(sent.status).toBe(201);
    expect(sent.body.sides).toBe(8);
  });

  it('reads a virtual column by its query everywhere a row is read, and never writes it', async () => {
    const created = await request(t.server).post('/shelves').send({ name: 'top', nameLength: 9 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'top', nameLength: 3 });
    const shelf = created.body.id as number;
    expect((await request(t.server).get(`/shelves/${shelf}`)).body.nameLength).toBe(3);
    const patched = await request(t.server).patch(`/shelves/${shelf}`).send({ name: 'upper', nameLength: 7 });
    expect(patched.body).toEqual({ id: shelf, name: 'upper', nameLength: 5 });
    expect((await request(t.server).get('/shelves')).body.items).toContainEqual({
      id: shelf,
      name: 'upper',
      nameLength: 5,
    });
    const batch = await request(t.server)
      .post('/shelves/batch')
      .send([{ name: 'low' }]);
    expect(batch.status).toBe(201);
    expect(batch.body.items).toEqual([{ id: expect.any(Number), name: 'low', nameLength: 3 }]);
    await t.dataSource.getRepository(Slot).save({ shelfId: shelf });
    const included = await request(t.server).get(`/slots?include=shelf&filter[shelfId][eq]=${shelf}`);
    expect(included.body.items[0].shelf).toEqual({ id: shelf, name: 'upper', nameLength: 5 });
    // The database has no such column to compare: it is on no default filter or sort list.
    expect((await request(t.server).get('/shelves?sort=nameLength')).status).toBe(400);
    expect((await request(t.server).get('/shelves?filter[nameLength][gt]=1')).status).toBe(400);
  });

  it('serves a view entity its reads, and routes no write to it', async () => {
    const listed = await request(t.server).get('/item-names');
    expect(listed.status).toBe(200);
    expect(listed.body.items).toContainEqual({ id, name: 'lamp 3' });
    expect((await request(t.server).post('/item-names').send({ name: 'x' })).status).toBe(404);
  });

  it('drops a reference whose foreign-key column is update: false from a patch, as it drops the column', async () => {
    const [first, second] = await t.dataSource.getRepository(Shelf).save([{ name: 'a' }, { name: 'b' }]);
    const created = await request(t.server)
      .post('/slots')
      .send({ shelf: { id: first!.id } });
    expect(created.status).toBe(201);
    expect(created.body.shelfId).toBe(first!.id);
    const patched = await request(t.server)
      .patch(`/slots/${created.body.id}`)
      .send({ shelf: { id: second!.id } });
    // The reference is dropped with its column, which leaves the patch empty: refused, and nothing changes.
    expect(patched.status).toBe(400);
    expect(patched.body.detail).toContain('changes nothing');
    expect((await t.dataSource.getRepository(Slot).findOneByOrFail({ id: created.body.id })).shelfId).toBe(first!.id);
  });

  it('refuses at bootstrap what the schema cannot serve: a virtual column on a list, a keyless view read by id, a soft-delete marker with update: false, an embedded identifier', async () => {
    for (const config of [
      { sort: { fields: ['id', 'nameLength'] } },
      { filter: { fields: ['nameLength'] } },
      { aggregate: { groupBy: ['nameLength'] } },
    ]) {
      const virtual = await bootstrapFailure({
        db,
        suite: 'e2e_column_options_virtual',
        entities: [Shelf, Slot],
        controllers: [svcController('shelves', Shelf, config)],
      });
      expect(virtual.message).toMatch(/'nameLength'.* a virtual column/);
    }
    const keyless = await bootstrapFailure({
      db,
      suite: 'e2e_column_options_keyless',
      entities: [Item, ItemSku],
      controllers: [svcController('item-skus', ItemSku, { operations: { findMany: true, findOne: true } })],
    });
    expect(keyless.message).toContain('no primary key');
    expect(keyless.message).toContain('operations: { findMany: true }');
    const marker = await bootstrapFailure({
      db,
      suite: 'e2e_column_options_marker',
      entities: [Archive],
      controllers: [svcController('archives', Archive, { delete: { field: 'removedAt', strategy: 'soft' } })],
    });
    expect(marker.message).toContain('does not update in place');
    const identifier = await bootstrapFailure({
      db,
      suite: 'e2e_column_options_identifier',
      entities: [Item],
      controllers: [svcController('items', Item, { identifier: { field: 'address.city' } })],
    });
    expect(identifier.message).toContain("'address.city' is a column of an embedded class");
  });

  it('refuses at bootstrap a view entity whose writes would be served', async () => {
    const error = await bootstrapFailure({
      db,
      suite: 'e2e_column_options_view',
      entities: [Item, ItemName],
      controllers: [svcController('item-names', ItemName)],
    });
    expect(error.message).toContain('ItemName reads a database view');
    expect(error.message).toContain('createOne');
  });
});
