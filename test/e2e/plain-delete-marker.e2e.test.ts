/**
 * `delete.field` naming a plain nullable date-time column (not the ORM's delete-date column) as the soft-delete
 * marker: delete sets it, reads hide rows where it is set, restore clears it, withDeleted and onlyDeleted see them,
 * and an included row follows the same marker. A column that cannot serve is refused at bootstrap, saying why.
 */
import request from 'supertest';
import { Column, Entity, ManyToOne, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectItem, expectList, expectProblem } from './support/e2e-http';

@Entity('pm_shelf')
class Shelf {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @Column({ type: Date, nullable: true }) archivedAt!: Date | null;
  @Column({ type: Date }) openedAt!: Date;
  @OneToMany(() => Item, (item) => item.shelf) items!: Item[];
}

@Entity('pm_item')
class Item {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) label!: string;
  @ManyToOne(() => Shelf, (shelf) => shelf.items, { nullable: true }) shelf!: Shelf | null;
}

describe.each(TEST_DATABASES)('A plain date-time column as the soft-delete marker on $name', (db) => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_plain_marker',
      entities: [Shelf, Item],
      controllers: [
        svcController('shelves', Shelf, {
          delete: { field: 'archivedAt' },
          schema: { input: { create: ['name', 'openedAt'], update: ['name', 'openedAt'] } },
        }),
        svcController('items', Item, { include: { fields: ['shelf'] } }),
      ],
    });
    const shelves = t.dataSource.getRepository(Shelf);
    for (const name of ['kept', 'archived']) {
      ids[name] = (await shelves.save({ name, openedAt: new Date('2026-01-01T00:00:00Z') })).id;
    }
    ids['item'] = (
      await t.dataSource.getRepository(Item).save({ label: 'on archived', shelf: { id: ids['archived']! } })
    ).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const names = (res: request.Response) => expectList(res).items.map((item) => item['name']);

  it('is set by DELETE, which hides the row from reads', async () => {
    expect((await request(t.server).delete(`/shelves/${ids['archived']}`)).status).toBe(204);
    const row = await t.dataSource.getRepository(Shelf).findOneByOrFail({ id: ids['archived']! });
    expect(row.archivedAt).toBeInstanceOf(Date);
    expect(names(await request(t.server).get('/shelves'))).toEqual(['kept']);
    expectProblem(await request(t.server).get(`/shelves/${ids['archived']}`), 404, 'SVC_NOT_FOUND');
    expectProblem(await request(t.server).delete(`/shelves/${ids['archived']}`), 409, 'SVC_ALREADY_DELETED');
  });

  it('is seen through withDeleted and onlyDeleted', async () => {
    expect(names(await request(t.server).get('/shelves?withDeleted=true')).sort()).toEqual(['archived', 'kept']);
    expect(names(await request(t.server).get('/shelves?onlyDeleted=true'))).toEqual(['archived']);
  });

  it('hides an archived row that another entity includes', async () => {
    const item = expectItem(await request(t.server).get(`/items/${ids['item']}?include=shelf`));
    expect(item['shelf']).toBeNull();
  });

  it('is not writable through a body', async () => {
    const created = expectItem(
      await request(t.server)
        .post('/shelves')
        .send({ name: 'new', openedAt: '2026-02-01T00:00:00Z', archivedAt: null }),
      201,
    );
    expect(created['archivedAt']).toBeNull();
  });

  it('is cleared by restore', async () => {
    expectItem(await request(t.server).patch(`/shelves/${ids['archived']}/restore`));
    expect(names(await request(t.server).get('/shelves')).sort()).toEqual(['archived', 'kept', 'new']);
    const row = await t.dataSource.getRepository(Shelf).findOneByOrFail({ id: ids['archived']! });
    expect(row.archivedAt).toBeNull();
  });

  describe('a column that cannot serve', () => {
    const boot = (field: string, strategy?: 'soft') =>
      bootstrapFailure({
        db,
        suite: 'e2e_plain_marker_boot',
        entities: [Shelf, Item],
        controllers: [svcController('shelves', Shelf, { delete: { field, ...(strategy ? { strategy } : {}) } })],
      });

    it('is refused when it is not a date column, saying why', async () => {
      const error = await boot('name');
      expect(error.message).toContain('delete.field');
      expect(error.message).toContain("'name' is a string column");
    });

    it('is refused when it is NOT NULL, saying why', async () => {
      expect((await boot('openedAt')).message).toContain("'openedAt' is NOT NULL");
    });

    it('is refused when it does not exist, never suggesting the name it was given', async () => {
      const missing = await boot('archivedOn', 'soft');
      expect(missing.message).toContain("Did you mean 'archivedAt'?");
      const refused = await boot('name', 'soft');
      expect(refused.message).not.toContain("Did you mean 'name'");
    });
  });
});
