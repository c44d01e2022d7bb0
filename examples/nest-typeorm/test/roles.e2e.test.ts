/**
 * Access per role on `/books` (the Book controller's `access`), with real signed tokens: a reader (and a caller
 * without a token) and an editor never see the supplier cost, an admin does; an editor writes every field but
 * `featured`, which is a 400 naming it; a reader's write is a 403; and an admin writes both.
 */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { Book } from '../src/entities';
import { bearer } from './tokens';

type Server = Parameters<typeof request>[0];

const READER = bearer('reader');
const EDITOR = bearer('editor');
const ADMIN = bearer('admin');

interface BookBody {
  readonly id: number;
  readonly title: string;
  readonly supplierCost?: number | null;
  readonly featured?: boolean;
}

describe('examples/nest-typeorm: roles on /books', () => {
  let app: INestApplication;
  let server: Server;
  const row = (id: number) => app.get(DataSource).getRepository(Book).findOneByOrFail({ id });

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRoot({ databaseUrl: ':memory:' })],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    server = app.getHttpServer() as Server;
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('reading', () => {
    it.each([
      ['a reader', READER],
      ['an editor', EDITOR],
      ['a caller without a token', {}],
    ])('%s: no book of the list or the item carries the supplier cost', async (_who, headers) => {
      const list = await request(server).get('/books').query({ limit: 50 }).set(headers).expect(200);
      const items = list.body.items as BookBody[];
      expect(items).toHaveLength(30);
      for (const item of items) {
        expect(item).not.toHaveProperty('supplierCost');
        expect(item).toHaveProperty('featured');
      }
      const one = await request(server).get('/books/1').set(headers).expect(200);
      expect(one.body).toMatchObject({ id: 1, title: 'A Wizard of Earthsea' });
      expect(one.body).not.toHaveProperty('supplierCost');
    });

    it('an admin: every book of the list and the item carries it', async () => {
      const list = await request(server).get('/books').query({ limit: 50 }).set(ADMIN).expect(200);
      const items = list.body.items as BookBody[];
      expect(items).toHaveLength(30);
      for (const item of items) expect(typeof item.supplierCost).toBe('number');
      const one = await request(server).get('/books/1').set(ADMIN).expect(200);
      expect(one.body.supplierCost).toBe((await row(1)).supplierCost);
    });

    it('a reader filtering or selecting by it gets a 400, as for an unknown field; an admin, the books', async () => {
      for (const query of [{ 'filter[supplierCost][gte]': '500' }, { select: 'title,supplierCost' }]) {
        const response = await request(server).get('/books').query(query).set(READER).expect(400);
        expect(response.body.code).toBe('SVC_QUERY_INVALID');
        expect(JSON.stringify(response.body)).toContain('supplierCost');
      }
      const admin = await request(server)
        .get('/books')
        .query({ 'filter[supplierCost][gte]': '1000', select: 'title,supplierCost' })
        .set(ADMIN)
        .expect(200);
      expect(admin.body.total).toBeGreaterThan(0);
      for (const item of admin.body.items as BookBody[]) expect(item.supplierCost).toBeGreaterThanOrEqual(1000);
    });

    it('aggregates over it for an admin only', async () => {
      await request(server).get('/books/aggregate').query({ sum: 'supplierCost' }).set(READER).expect(400);
      const admin = await request(server).get('/books/aggregate').query({ sum: 'supplierCost' }).set(ADMIN).expect(200);
      expect(JSON.stringify(admin.body)).toContain('supplierCost');
    });
  });

  describe('writing', () => {
    it('an editor updates a book, but writing `featured` is a 400 naming it, and nothing is written', async () => {
      const ok = await request(server).patch('/books/2').set(EDITOR).send({ rating: 4.2 }).expect(200);
      expect(ok.body).toMatchObject({ id: 2, rating: 4.2 });
      expect(ok.body).not.toHaveProperty('supplierCost');
      for (const [method, path] of [
        ['patch', '/books/2'],
        ['put', '/books/2'],
        ['post', '/books'],
      ] as const) {
        const call = request(server)[method](path);
        const response = await call.set(EDITOR).send({ title: 'Featured by an editor', featured: true }).expect(400);
        expect(response.body.code).toBe('SVC_VALIDATION_FAILED');
        expect(JSON.stringify(response.body.errors)).toContain('featured');
      }
      const book = await row(2);
      expect([book.title, book.featured]).toEqual(['The Left Hand of Darkness', false]);
      const created = await request(server).get('/books').query({ 'filter[title][eq]': 'Featured by an editor' });
      expect(created.body.total).toBe(0);
    });

    it('a reader may not write: 403 SVC_FORBIDDEN, and the book stays', async () => {
      const before = await row(3);
      const patch = await request(server).patch('/books/3').set(READER).send({ rating: 1 }).expect(403);
      expect(patch.body.code).toBe('SVC_FORBIDDEN');
      await request(server).post('/books').set(READER).send({ title: 'By a reader' }).expect(403);
      await request(server).delete('/books/3').set(READER).expect(403);
      expect(await row(3)).toEqual(before);
    });

    it('an admin writes `featured` and the supplier cost', async () => {
      const response = await request(server)
        .patch('/books/4')
        .set(ADMIN)
        .send({ featured: true, supplierCost: 1234 })
        .expect(200);
      expect(response.body).toMatchObject({ id: 4, featured: true, supplierCost: 1234 });
      expect(await row(4)).toMatchObject({ featured: true, supplierCost: 1234 });
    });
  });
});
