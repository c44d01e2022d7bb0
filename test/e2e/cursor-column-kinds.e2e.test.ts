/**
 * Cursor paging beside decimal and bigint columns: an entity with such columns pages by cursor as long as no cursor
 * has to carry one of their values. A request that sorts by one is a 400 naming it; a primary key or `sort.default`
 * key of such a kind fails bootstrap, naming it.
 */
import request from 'supertest';
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectList, expectProblem } from './support/e2e-http';

@Entity('ck_product')
class Product {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @Column({ type: 'decimal', precision: 12, scale: 2 }) price!: string;
  @Column({ type: 'bigint' }) stock!: string;
}

@Entity('ck_ledger')
class Ledger {
  @PrimaryColumn({ type: 'bigint' }) id!: string;
  @Column({ type: 'varchar', length: 40 }) memo!: string;
}

describe.each(TEST_DATABASES)('Cursor paging beside decimal and bigint columns on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_cursor_kinds',
      entities: [Product, Ledger],
      controllers: [
        svcController('products', Product, { pagination: { strategy: 'cursor', defaultLimit: 2 } }),
        svcController('offset-products', Product),
      ],
    });
    await t.dataSource.getRepository(Product).save(
      Array.from({ length: 5 }, (_, i) => ({
        name: `p${i}`,
        price: `${(5 - i) * 10}.25`,
        stock: String(9_007_199_254_740_993n + BigInt(i)),
      })),
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  it('boots with the decimal and bigint columns on the default sort.fields, and pages by id', async () => {
    const seen: string[] = [];
    let url = '/products';
    for (let page = 0; page < 5; page++) {
      const res = await request(t.server).get(url).expect(200);
      const list = res.body as { items: Record<string, unknown>[]; meta: { nextCursor: string | null } };
      seen.push(...list.items.map((item) => String(item['name'])));
      const next = list.meta.nextCursor;
      if (!next) break;
      url = `/products?cursor=${encodeURIComponent(next)}`;
    }
    expect(seen).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
  });

  it.each(['price,id', '-stock,id'])('refuses sort=%s under cursor with a 400 naming the column', async (sort) => {
    const problem = expectProblem(await request(t.server).get(`/products?sort=${sort}`), 400, 'SVC_QUERY_INVALID');
    const column = sort.replace(/^-/, '').split(',')[0]!;
    expect(problem.errors?.[0]).toMatchObject({ param: 'sort', code: 'cursor_sort' });
    expect(problem.errors?.[0]?.detail).toContain(`'${column}'`);
  });

  it('sorts by them under offset', async () => {
    const list = expectList(await request(t.server).get('/offset-products?sort=price'));
    expect(list.items.map((item) => item['name'])).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
  });

  describe('at bootstrap', () => {
    it('refuses a sort.default key of such a kind, naming it', async () => {
      const error = await bootstrapFailure({
        db,
        suite: 'e2e_cursor_kinds_boot',
        entities: [Product, Ledger],
        controllers: [
          svcController('products', Product, {
            pagination: { strategy: 'cursor' },
            sort: { default: ['price', 'id'] },
          }),
        ],
      });
      expect(error.message).toContain('sort.default');
      expect(error.message).toContain("'price' is a decimal column");
    });

    it('refuses a bigint primary key, naming it', async () => {
      const error = await bootstrapFailure({
        db,
        suite: 'e2e_cursor_kinds_boot',
        entities: [Product, Ledger],
        controllers: [svcController('ledger', Ledger, { pagination: { strategy: 'cursor' } })],
      });
      expect(error.message).toContain("'id' (the primary key) is a bigint column");
    });
  });
});
