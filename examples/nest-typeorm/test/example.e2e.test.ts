/** The reference app as a user meets it: seeded on first start, served over the generated routes. */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { SvcService } from '@svc/core';
import { svcToken } from '@svc/nestjs';
import request from 'supertest';
import { AppModule } from '../src/app.module';
import { Book } from '../src/entities';
import { bearer } from './tokens';

type Server = Parameters<typeof request>[0];

const EDITOR = bearer('editor');

describe('examples/nest-typeorm', () => {
  let app: INestApplication;
  let server: Server;

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

  describe('on first start', () => {
    it('seeds authors, about thirty books, tags and reviews', async () => {
      const authors = await request(server).get('/authors').expect(200);
      const books = await request(server).get('/books').expect(200);
      const tags = await request(server).get('/tags').expect(200);
      const reviews = await request(server).get('/reviews').expect(200);
      expect(authors.body.total).toBeGreaterThanOrEqual(5);
      expect(books.body.total).toBe(30);
      expect(tags.body.total).toBeGreaterThan(0);
      expect(reviews.body.total).toBeGreaterThan(0);
    });
  });

  describe('GET /books', () => {
    it('pages by the configured default limit, sorted by title', async () => {
      const response = await request(server).get('/books').expect(200);
      expect(response.body).toMatchObject({ limit: 10, offset: 0, total: 30 });
      const titles = (response.body.items as { title: string }[]).map((book) => book.title);
      expect(titles).toHaveLength(10);
      expect(titles).toEqual([...titles].sort());
    });

    it('filters with an allowed operator', async () => {
      const response = await request(server)
        .get('/books')
        .query({ 'filter[title][startsWith]': 'The', limit: 50 })
        .expect(200);
      const titles = (response.body.items as { title: string }[]).map((book) => book.title);
      expect(titles.length).toBeGreaterThan(0);
      for (const title of titles) expect(title.startsWith('The')).toBe(true);
    });

    it('answers 400 SVC_QUERY_INVALID for an operator the field does not take', async () => {
      const response = await request(server).get('/books').query({ 'filter[title][endsWith]': 'x' }).expect(400);
      expect(response.body.code).toBe('SVC_QUERY_INVALID');
    });

    it('answers 400 SVC_QUERY_INVALID naming a column that filter.fields does not name', async () => {
      for (const field of ['isbn', 'createdAt']) {
        const response = await request(server)
          .get('/books')
          .query({ [`filter[${field}][isNotNull]`]: 'true' })
          .expect(400);
        expect(response.body.code).toBe('SVC_QUERY_INVALID');
        expect(response.body.errors).toEqual([expect.objectContaining({ param: `filter[${field}]` })]);
      }
    });
  });

  describe('GET /books?include=author', () => {
    it('embeds each book’s author, projected through the author’s own config', async () => {
      const response = await request(server).get('/books').query({ include: 'author', limit: 50 }).expect(200);
      const books = response.body.items as { authorId: number | null; author: { id: number; name: string } | null }[];
      expect(books).toHaveLength(30);
      for (const book of books) expect(book.author?.id).toBe(book.authorId);
      expect(books.map((book) => book.author?.name)).toContain('Ursula K. Le Guin');
    });

    it('answers 400 for a relation that include.fields does not list', async () => {
      const response = await request(server).get('/books').query({ include: 'reviews' }).expect(400);
      expect(response.body.code).toBe('SVC_QUERY_INVALID');
    });
  });

  describe('GET /books?search[query]=...', () => {
    it('finds the books whose title holds every word of the term', async () => {
      const response = await request(server).get('/books').query({ 'search[query]': 'parable sower' }).expect(200);
      const titles = (response.body.items as { title: string }[]).map((book) => book.title);
      expect(titles).toEqual(['Parable of the Sower']);
    });

    it('matches words in any case and order', async () => {
      const response = await request(server).get('/books').query({ 'search[query]': 'EARTHSEA wizard' }).expect(200);
      expect(response.body.items).toEqual([expect.objectContaining({ title: 'A Wizard of Earthsea' })]);
    });
  });

  describe('GET /books/:id', () => {
    it('serves the book with an ETag', async () => {
      const response = await request(server).get('/books/1').expect(200);
      expect(response.body).toMatchObject({ id: 1, title: 'A Wizard of Earthsea' });
      expect(response.headers['etag']).toMatch(/^"/);
    });

    it('answers 404 for a missing book', async () => {
      await request(server).get('/books/99999').expect(404);
    });
  });

  describe("the policy: reads are open, writes need an editor's token", () => {
    it('serves reads without the header', async () => {
      await request(server).get('/authors/1').expect(200);
    });

    it('refuses a write without the header with 403 SVC_FORBIDDEN, and writes nothing', async () => {
      const response = await request(server).post('/books').send({ title: 'Unsigned' }).expect(403);
      expect(response.body).toMatchObject({ code: 'SVC_FORBIDDEN', params: { operation: 'createOne' } });
      const found = await request(server).get('/books').query({ 'filter[title][eq]': 'Unsigned' }).expect(200);
      expect(found.body.total).toBe(0);
    });

    it('refuses a write from a reader', async () => {
      await request(server).patch('/authors/1').set(bearer('reader')).send({ bornYear: 1930 }).expect(403);
    });

    it('allows the write for an editor', async () => {
      const response = await request(server).patch('/authors/6').set(EDITOR).send({ country: 'GB' }).expect(200);
      expect(response.body).toMatchObject({ id: 6, country: 'GB' });
    });

    it('reads the caller from the call context when there is no request (service.run)', async () => {
      const books = app.get<SvcService<Book>>(svcToken(Book));
      await expect(books.run('publishOne', { id: 10 })).rejects.toMatchObject({ code: 'SVC_FORBIDDEN' });
      const published = await books.run<Book>('publishOne', { id: 10 }, { context: { user: { role: 'editor' } } });
      expect(published).toMatchObject({ id: 10, published: true });
    });
  });

  describe('PATCH /books/:id/publish (a custom operation)', () => {
    it('publishes an unpublished book and answers 200 with the row and an ETag', async () => {
      const before = await request(server).get('/books/5').expect(200);
      expect(before.body.published).toBe(false);
      const response = await request(server).patch('/books/5/publish').set(EDITOR).expect(200);
      expect(response.body).toMatchObject({ id: 5, published: true });
      expect(response.headers['etag']).toMatch(/^"/);
      const after = await request(server).get('/books/5').expect(200);
      expect(after.body.published).toBe(true);
    });

    it('answers 404 for a missing book', async () => {
      const response = await request(server).patch('/books/99999/publish').set(EDITOR).expect(404);
      expect(response.body.code).toBe('SVC_NOT_FOUND');
    });

    it('is refused without the editor header', async () => {
      await request(server).patch('/books/15/publish').expect(403);
    });
  });

  describe('GET /reviews (cursor paging)', () => {
    it('pages newest first by meta.nextCursor until it is null, without repeating a review', async () => {
      const seen: number[] = [];
      let cursor: string | null | undefined;
      for (let page = 0; page < 10 && cursor !== null; page++) {
        const response = await request(server)
          .get('/reviews')
          .query(cursor ? { limit: 12, cursor } : { limit: 12 })
          .expect(200);
        seen.push(...(response.body.items as { id: number }[]).map((review) => review.id));
        cursor = (response.body.meta as { nextCursor: string | null }).nextCursor;
        if (cursor !== null) expect(cursor).toEqual(expect.any(String));
      }
      expect(cursor).toBeNull();
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual([...seen].sort((a, b) => b - a));
      const total = (await request(server).get('/reviews').expect(200)).body.total as number;
      expect(seen).toHaveLength(total);
    });

    it('answers 400 SVC_QUERY_UNSUPPORTED_PARAM for offset, which the cursor strategy does not take', async () => {
      const response = await request(server).get('/reviews').query({ offset: 10 }).expect(400);
      expect(response.body.code).toBe('SVC_QUERY_UNSUPPORTED_PARAM');
    });
  });

  describe('a book through its life: create, patch, delete, restore', () => {
    it('creates with 201 and a Location, patches, soft-deletes and restores', async () => {
      const created = await request(server)
        .post('/books')
        .set(EDITOR)
        .send({ title: 'The Word for World Is Forest', pages: 189, authorId: 1 })
        .expect(201);
      const id = created.body.id as number;
      expect(created.headers['location']).toBe(`/books/${id}`);
      expect(created.headers['etag']).toBeDefined();

      const patched = await request(server)
        .patch(`/books/${id}`)
        .set(EDITOR)
        .send({ pages: 190, published: true })
        .expect(200);
      expect(patched.body).toMatchObject({ id, pages: 190, published: true, title: 'The Word for World Is Forest' });

      await request(server).delete(`/books/${id}`).set(EDITOR).expect(204);
      await request(server).get(`/books/${id}`).expect(404);

      const restored = await request(server).patch(`/books/${id}/restore`).set(EDITOR).expect(200);
      expect(restored.body).toMatchObject({ id, deletedAt: null });
      await request(server).get(`/books/${id}`).expect(200);
    });

    it('answers 400 for a field that is not writable', async () => {
      const response = await request(server)
        .post('/books')
        .set(EDITOR)
        .send({ title: 'Sneaky', colour: 'red' })
        .expect(400);
      expect(response.body.code).toBe('SVC_VALIDATION_FAILED');
    });
  });

  describe('nested writes: a book with its author and tags in one body', () => {
    const books = (title: string) =>
      request(server).get('/books').query({ 'filter[title][eq]': title, include: 'author,tags' }).expect(200);
    const authorsNamed = (name: string) =>
      request(server).get('/authors').query({ 'filter[name][eq]': name }).expect(200);
    const tagsNamed = (name: string) => request(server).get('/tags').query({ 'filter[name][eq]': name }).expect(200);

    it('creates the book, a new author and a new tag, and connects an existing tag', async () => {
      const classic = (await tagsNamed('classic')).body.items[0] as { id: number };
      // Tag lists are cached: the nested write must drop the entry read here.
      expect((await tagsNamed('nested-tag')).body.total).toBe(0);
      const created = await request(server)
        .post('/books')
        .set(EDITOR)
        .send({
          title: 'Nested Book',
          pages: 320,
          author: { create: { name: 'Nested Author', country: 'GB' } },
          tags: [{ connect: { id: classic.id } }, { connectOrCreate: { where: { name: 'nested-tag' }, create: {} } }],
        })
        .expect(201);
      const read = (await books('Nested Book')).body.items as {
        id: number;
        authorId: number;
        author: { id: number; name: string; country: string };
        tags: { id: number; name: string }[];
      }[];
      expect(read).toHaveLength(1);
      expect(read[0]!.id).toBe(created.body.id);
      expect(read[0]!.author).toMatchObject({ id: read[0]!.authorId, name: 'Nested Author', country: 'GB' });
      expect(read[0]!.tags.map((tag) => tag.name).sort()).toEqual(['classic', 'nested-tag']);
      expect((await authorsNamed('Nested Author')).body.total).toBe(1);
      expect((await tagsNamed('nested-tag')).body.total).toBe(1);
      expect((await tagsNamed('classic')).body.total).toBe(1);

      // A second book connecting-or-creating the same tag connects it: still one tag of that name.
      await request(server)
        .post('/books')
        .set(EDITOR)
        .send({ title: 'Nested Sequel', tags: [{ connectOrCreate: { where: { name: 'nested-tag' }, create: {} } }] })
        .expect(201);
      expect((await tagsNamed('nested-tag')).body.total).toBe(1);
    });

    it('refuses a body with one bad nested row with a 400 naming its path, and writes nothing', async () => {
      const counts = async () =>
        Promise.all(
          ['/books', '/authors', '/tags'].map(
            async (path) => (await request(server).get(path).query({ limit: 1 }).expect(200)).body.total as number,
          ),
        );
      const before = await counts();
      const response = await request(server)
        .post('/books')
        .set(EDITOR)
        .send({
          title: 'Never Written',
          author: { create: { name: 'Never Written Author' } },
          tags: [
            { connectOrCreate: { where: { name: 'never-written' }, create: {} } },
            { connectOrCreate: { where: { name: 'never-either' }, create: { colour: 'red' } } },
          ],
        })
        .expect(400);
      expect(response.body.code).toBe('SVC_VALIDATION_FAILED');
      expect(response.body.errors).toEqual([
        expect.objectContaining({ field: 'tags[1].connectOrCreate.create.colour', code: 'not_writable' }),
      ]);
      expect(await counts()).toEqual(before);
      expect((await books('Never Written')).body.total).toBe(0);
      expect((await authorsNamed('Never Written Author')).body.total).toBe(0);
      expect((await tagsNamed('never-written')).body.total).toBe(0);
    });

    it('keeps to the roles: a reader may not write the relations, an editor still may not set featured', async () => {
      const before = (await authorsNamed('Refused Author')).body.total as number;
      // The relations are fields of the book for `access`: a reader's rule writes none of them.
      const reader = await request(server)
        .post('/books')
        .set(bearer('reader'))
        .send({ title: 'Refused', author: { create: { name: 'Refused Author' } } })
        .expect(400);
      expect(reader.body.errors).toEqual([expect.objectContaining({ field: 'author', code: 'not_writable' })]);
      const featured = await request(server)
        .post('/books')
        .set(EDITOR)
        .send({ title: 'Refused', featured: true, author: { create: { name: 'Refused Author' } } })
        .expect(400);
      expect(featured.body.errors).toEqual([expect.objectContaining({ field: 'featured' })]);
      expect((await authorsNamed('Refused Author')).body.total).toBe(before);
    });
  });
});
