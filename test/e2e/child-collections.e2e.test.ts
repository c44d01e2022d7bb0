/**
 * `parent`: a child collection under a row of another entity (`/shelves/:name/items`): each operation reaches only
 * that parent's rows, a create links to it, and a parent the caller cannot see (missing, or another tenant's) answers
 * 404 naming the parent, before anything of the child is read or written.
 */
import request from 'supertest';
import type { EntityConfig, SvcContext } from '@svc/core';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { postGraphql } from './support/graphql-http';

@Entity('cc_shelf')
class CcShelf {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 60, unique: true }) name!: string;
}

@Entity('cc_item')
class CcItem {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 60 }) label!: string;
  @ManyToOne(() => CcShelf, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'shelf_id' })
  shelf!: CcShelf;
}

@Entity('cc_note')
class CcNote {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 60 }) text!: string;
  @ManyToOne(() => CcShelf, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'shelf_id' })
  shelf!: CcShelf;
}

const tenantOf = (context: SvcContext) =>
  (context.request as { headers?: Record<string, string | undefined> } | undefined)?.headers?.['x-tenant'] ?? 'none';
const scoped = {
  filter: { apply: ({ context }: { context: SvcContext }) => ({ tenant: { eq: tenantOf(context) } }) },
  set: { create: ({ context }: { context: SvcContext }) => ({ tenant: tenantOf(context) }) },
};
const itemConfig: EntityConfig<CcItem> = {
  ...scoped,
  parent: { relation: 'shelf', param: 'name', field: 'name' },
  schema: { input: { create: ['label'], update: ['label'] } },
};

describe.each(TEST_DATABASES)('child collections on $name', (db) => {
  let t: TestApp;
  let oak: CcShelf;
  let pine: CcShelf;
  const a = { 'x-tenant': 'a' };
  const b = { 'x-tenant': 'b' };

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_child_collections',
      entities: [CcShelf, CcItem],
      controllers: [
        svcController('shelves', CcShelf, scoped),
        svcController('shelves/:name/items', CcItem, itemConfig),
      ],
    });
    [oak, pine] = await t.dataSource.getRepository(CcShelf).save([
      { tenant: 'a', name: 'oak' },
      { tenant: 'a', name: 'pine' },
      { tenant: 'b', name: 'birch' },
    ]);
  });
  afterAll(() => t?.close());

  it("creates under the parent the route names, and lists only that parent's rows", async () => {
    const created = await request(t.server).post('/shelves/oak/items').set(a).send({ label: 'cup' }).expect(201);
    expect(created.body).toMatchObject({ label: 'cup', tenant: 'a' });
    await request(t.server).post('/shelves/pine/items').set(a).send({ label: 'jar' }).expect(201);
    const stored = await t.dataSource
      .getRepository(CcItem)
      .findOne({ where: { id: created.body.id }, relations: { shelf: true } });
    expect(stored?.shelf.id).toBe(oak.id);
    const oakItems = await request(t.server).get('/shelves/oak/items').set(a).expect(200);
    expect(oakItems.body.items.map((item: CcItem) => item.label)).toEqual(['cup']);
    const pineItems = await request(t.server).get('/shelves/pine/items').set(a).expect(200);
    expect(pineItems.body.items.map((item: CcItem) => item.label)).toEqual(['jar']);
  });

  it("answers another parent's child as missing: reads, updates and deletes", async () => {
    const jar = (await request(t.server).get('/shelves/pine/items').set(a).expect(200)).body.items[0];
    const read = await request(t.server).get(`/shelves/oak/items/${jar.id}`).set(a).expect(404);
    expect(read.body.params).toMatchObject({ entity: 'CcItem' });
    await request(t.server).patch(`/shelves/oak/items/${jar.id}`).set(a).send({ label: 'x' }).expect(404);
    await request(t.server).delete(`/shelves/oak/items/${jar.id}`).set(a).expect(404);
    await request(t.server).get(`/shelves/pine/items/${jar.id}`).set(a).expect(200);
  });

  it('answers a missing parent with 404 naming the parent, on every operation', async () => {
    for (const call of [
      request(t.server).get('/shelves/maple/items').set(a),
      request(t.server).post('/shelves/maple/items').set(a).send({ label: 'x' }),
      request(t.server).get('/shelves/maple/items/1').set(a),
      request(t.server).delete('/shelves/maple/items/1').set(a),
    ]) {
      const answer = await call.expect(404);
      expect(answer.body).toMatchObject({ code: 'SVC_NOT_FOUND', params: { entity: 'CcShelf', id: 'maple' } });
    }
  });

  it("answers another tenant's parent as missing, and writes nothing under it", async () => {
    const answer = await request(t.server).post('/shelves/birch/items').set(a).send({ label: 'x' }).expect(404);
    expect(answer.body.params).toMatchObject({ entity: 'CcShelf' });
    await request(t.server).get('/shelves/oak/items').set(b).expect(404);
    expect(await t.dataSource.getRepository(CcItem).countBy({ label: 'x' })).toBe(0);
  });

  it('keeps the parent the route names when a body names another', async () => {
    const moved = await request(t.server)
      .post('/shelves/oak/items')
      .set(a)
      .send({ label: 'lid', shelf: { id: pine.id } })
      .expect(400);
    expect(JSON.stringify(moved.body)).toContain('shelf');
  });
});

describe.each(TEST_DATABASES)('child collections without a route parameter on $name', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_child_no_param',
      entities: [CcShelf, CcItem, CcNote],
      controllers: [
        svcController('shelves', CcShelf, scoped),
        // Notes have no scope of their own: only their parent shelf's tenant decides who sees them.
        svcController('shelves/:name/notes', CcNote, { parent: { relation: 'shelf', param: 'name', field: 'name' } }),
      ],
      svc: { graphql: true },
    });
    const [oak, birch] = await t.dataSource.getRepository(CcShelf).save([
      { tenant: 'a', name: 'oak' },
      { tenant: 'b', name: 'birch' },
    ]);
    await t.dataSource.getRepository(CcNote).save([
      { text: 'oak note', shelf: oak },
      { text: 'birch note', shelf: birch },
    ]);
  });
  afterAll(() => t?.close());

  it('serves over GraphQL only the children of parents the caller may see', async () => {
    const answer = await postGraphql<{ ccNotes: { items: { text: string }[] } }>(t.server, {
      query: '{ ccNotes { items { text } } }',
      headers: { 'x-tenant': 'b' },
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.ccNotes.items).toEqual([{ text: 'birch note' }]);
    const rest = await request(t.server).get('/shelves/birch/notes').set({ 'x-tenant': 'b' }).expect(200);
    expect(rest.body.items.map((note: CcNote) => note.text)).toEqual(['birch note']);
    await request(t.server).get('/shelves/oak/notes').set({ 'x-tenant': 'b' }).expect(404);
  });
});

describe('child collections at bootstrap', () => {
  const db = TEST_DATABASES[0]!;
  const boot = (parent: unknown) =>
    bootstrapFailure({
      db,
      suite: 'e2e_child_boot',
      entities: [CcShelf, CcItem],
      controllers: [
        svcController('shelves', CcShelf),
        svcController('shelves/:name/items', CcItem, { parent } as EntityConfig),
      ],
    });

  it('refuses a relation that is not the owning to-one link, and a missing parameter name', async () => {
    expect((await boot({ relation: 'tenant', param: 'name' })).message).toContain('parent.relation');
    expect((await boot({ relation: 'shelf', param: '' })).message).toContain('parent.param');
  });
});
