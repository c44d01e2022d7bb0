/**
 * Two tenants on one database, scoped by a tenant taken from a header (`filter.apply`): references by id, the scoped
 * repository of handlers, relation paths in custom reads, row policies on custom writes and hidden columns must never
 * let one tenant reach, probe or pin the other's rows.
 */
import { builtInHandlers, type EntityConfig, type Row, type SvcContext, type SvcOperationInput } from '@svc/core';
import request from 'supertest';
import {
  Column,
  Entity,
  JoinColumn,
  JoinTable,
  ManyToMany,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectItem, expectList, expectProblem, type Problem } from './support/e2e-http';

@Entity('t_author')
class TenantAuthor {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @Column({ type: 'varchar', length: 100, nullable: true }) secret!: string | null;
  @OneToMany(() => TenantBook, (book) => book.author) books!: TenantBook[];
}

@Entity('t_tag')
class TenantTag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 40 }) name!: string;
}

@Entity('t_book')
class TenantBook {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'boolean', default: false }) locked!: boolean;
  @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => TenantAuthor, (author) => author.books, { nullable: true, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'authorId' })
  author!: TenantAuthor | null;
  @ManyToMany(() => TenantTag) @JoinTable({ name: 't_book_tags' }) tags!: TenantTag[];
  @OneToMany(() => TenantReview, (review) => review.book) reviews!: TenantReview[];
}

@Entity('t_review')
class TenantReview {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'int' }) rating!: number;
  @Column({ type: 'int' }) bookId!: number;
  @ManyToOne(() => TenantBook, (book) => book.reviews, { nullable: false, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'bookId' })
  book!: TenantBook;
}

const ENTITIES = [TenantAuthor, TenantTag, TenantBook, TenantReview];

function tenantOf(context: SvcContext): string {
  const headers = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers;
  const value = headers?.['x-tenant'];
  return typeof value === 'string' ? value : 'nobody';
}

/** Every entity is scoped to the caller's tenant and stamps it on create. */
function tenantScoped(writable: string[], extra: EntityConfig = {}, members: string[] = []): EntityConfig {
  return {
    ...extra,
    filter: { ...extra.filter, apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
    set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
    schema: { input: { create: writable, update: [...writable, ...members] } },
  };
}

const repo = (context: SvcContext) => context.repository!;
const keyOf = (input: SvcOperationInput) => input.key as { id: number };
/** What the last handler of the scoped-repository probes saw. */
const seen: { loaded?: unknown } = {};

const BOOKS = tenantScoped(
  ['title', 'locked', 'authorId', 'author'],
  {
    filter: { fields: ['title', 'author.name'] },
    include: { fields: ['author', 'reviews'] },
    relations: { tags: { write: { strategy: 'jsonPatch' } } },
    operations: {
      findMany: true,
      findOne: true,
      createOne: true,
      updateOne: true,
      patchOne: { policy: ({ entity }) => entity?.['locked'] !== true },
      deleteOne: true,
      relinkOne: {
        meta: { routes: { method: 'POST', path: ':id/relink', successStatus: 200 } },
        policy: ({ entity }) => entity !== undefined && entity['locked'] !== true,
        handler: async (input, context) => {
          await repo(context).update(keyOf(input), { authorId: (input.body as { authorId: unknown }).authorId });
          return repo(context).findOne({ key: keyOf(input) });
        },
      },
      insertOne: {
        meta: { routes: { method: 'POST', path: 'insert', successStatus: 201 } },
        handler: async (input, context) => {
          const body = input.body as Row;
          const { key } = await repo(context).insert({ ...body, tenant: tenantOf(context) });
          return repo(context).findOne({ key });
        },
      },
      authorOfOne: {
        kind: 'read',
        meta: { routes: { method: 'GET', path: ':id/author-probe', successStatus: 200 } },
        // Loads the author of a row it names itself, trusting the id and foreign key it was handed.
        handler: async (input, context) => {
          const row = (await repo(context).findOne({ key: keyOf(input) })) ?? { id: keyOf(input).id, authorId: null };
          seen.loaded = await repo(context).loadRelation!({ relation: 'author', parents: [row], view: 'all' });
          return row;
        },
      },
      reviewsOfOne: {
        kind: 'read',
        meta: { routes: { method: 'GET', path: ':id/reviews-probe', successStatus: 200 } },
        // Loads the reviews of any book id, without reading the book first.
        handler: async (input, context) => {
          seen.loaded = await repo(context).loadRelation!({
            relation: 'reviews',
            parents: [keyOf(input)],
            view: 'all',
          });
          return { id: keyOf(input).id };
        },
      },
      byAuthorMany: {
        kind: 'read',
        cardinality: 'many',
        meta: { routes: { method: 'GET', path: 'by-author', successStatus: 200 } },
        handler: builtInHandlers.findMany,
      },
    },
  },
  ['tags'],
);

describe.each(TEST_DATABASES)('Tenant isolation on $name', (db) => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_tenant_isolation',
      entities: ENTITIES,
      controllers: [
        svcController(
          'authors',
          TenantAuthor,
          tenantScoped(['name', 'secret'], { select: { fields: { exclude: ['secret'] } } }),
        ),
        svcController(
          'listed-authors',
          TenantAuthor,
          tenantScoped(['name', 'secret'], {
            select: { fields: { exclude: ['secret'] } },
            filter: { fields: ['name', 'secret'] },
            sort: { fields: ['name', 'secret'] },
          }),
        ),
        svcController('books', TenantBook, BOOKS),
        svcController('reviews', TenantReview, tenantScoped(['rating', 'bookId', 'book'])),
        svcController('tags', TenantTag, tenantScoped(['name'])),
      ],
    });
    const authors = t.dataSource.getRepository(TenantAuthor);
    ids['ann'] = (await authors.save({ tenant: 'a', name: 'Ann', secret: 'a-secret' })).id;
    ids['bob'] = (await authors.save({ tenant: 'b', name: 'Bob', secret: 'b-secret' })).id;
    const books = t.dataSource.getRepository(TenantBook);
    ids['a1'] = (await books.save({ tenant: 'a', title: 'A one', authorId: ids['ann']! })).id;
    ids['locked'] = (await books.save({ tenant: 'a', title: 'A locked', locked: true, authorId: ids['ann']! })).id;
    // A row linked across tenants before the fix (or by another program): reads must still hold the scope.
    ids['cross'] = (await books.save({ tenant: 'a', title: 'A cross', authorId: ids['bob']! })).id;
    ids['b1'] = (await books.save({ tenant: 'b', title: 'B one', authorId: ids['bob']! })).id;
    const reviews = t.dataSource.getRepository(TenantReview);
    ids['review-b'] = (await reviews.save({ tenant: 'b', rating: 2, bookId: ids['b1']! })).id;
    const tags = t.dataSource.getRepository(TenantTag);
    ids['tag-a'] = (await tags.save({ tenant: 'a', name: 'mine' })).id;
    ids['tag-b'] = (await tags.save({ tenant: 'b', name: 'theirs' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const asA = (req: request.Test) => req.set('x-tenant', 'a');
  const book = (name: string) => `/books/${ids[name]}`;
  const bookRow = (name: string) => t.dataSource.getRepository(TenantBook).findOneByOrFail({ id: ids[name]! });
  const MISSING = 987654;

  /** The 422 a reference answers, with the id taken out, so a missing and a hidden row can be compared. */
  function unresolved(res: request.Response, id: number): Omit<Problem, 'requestId' | 'instance'> {
    const problem = expectProblem(res, 422, 'SVC_UNRESOLVED_RELATION');
    const { requestId: _r, instance: _i, ...rest } = problem;
    const anonymous = new RegExp(`\\b${id}\\b`, 'g');
    return JSON.parse(JSON.stringify(rest).replace(anonymous, '<id>')) as Problem;
  }

  describe('a to-one reference by id to another tenant’s row', () => {
    it('answers on PATCH exactly as a missing row does (422), and writes nothing', async () => {
      const hidden = unresolved(
        await asA(request(t.server).patch(book('a1'))).send({ authorId: ids['bob'] }),
        ids['bob']!,
      );
      const missing = unresolved(await asA(request(t.server).patch(book('a1'))).send({ authorId: MISSING }), MISSING);
      expect(hidden).toEqual(missing);
      expect((await bookRow('a1')).authorId).toBe(ids['ann']);
    });

    it('is refused as { author: { id } }, on PUT and on POST', async () => {
      unresolved(await asA(request(t.server).patch(book('a1'))).send({ author: { id: ids['bob'] } }), ids['bob']!);
      unresolved(
        await asA(request(t.server).put(book('a1'))).send({ title: 'A one', authorId: ids['bob'] }),
        ids['bob']!,
      );
      const before = await t.dataSource.getRepository(TenantBook).count();
      unresolved(await asA(request(t.server).post('/books')).send({ title: 'new', authorId: ids['bob'] }), ids['bob']!);
      expect(await t.dataSource.getRepository(TenantBook).count()).toBe(before);
    });

    it('is refused for a required reference (a review of another tenant’s book)', async () => {
      unresolved(await asA(request(t.server).post('/reviews')).send({ rating: 5, bookId: ids['b1'] }), ids['b1']!);
      unresolved(
        await asA(request(t.server).post('/reviews')).send({ rating: 5, book: { id: ids['b1'] } }),
        ids['b1']!,
      );
      expect(await t.dataSource.getRepository(TenantReview).countBy({ tenant: 'a' })).toBe(0);
    });

    it('is refused inside a JSON Patch document', async () => {
      const res = await asA(request(t.server).patch(book('a1')))
        .set('Content-Type', 'application/json-patch+json')
        .send(JSON.stringify([{ op: 'replace', path: '/authorId', value: ids['bob'] }]));
      unresolved(res, ids['bob']!);
      expect((await bookRow('a1')).authorId).toBe(ids['ann']);
    });

    it('is refused through context.repository in custom writes (update and insert)', async () => {
      unresolved(await asA(request(t.server).post(`${book('a1')}/relink`)).send({ authorId: ids['bob'] }), ids['bob']!);
      unresolved(
        await asA(request(t.server).post('/books/insert')).send({ title: 'x', authorId: ids['bob'] }),
        ids['bob']!,
      );
      expect((await bookRow('a1')).authorId).toBe(ids['ann']);
    });

    it('still accepts a reference inside the caller’s scope, and null', async () => {
      expectItem(await asA(request(t.server).patch(book('a1'))).send({ authorId: null }));
      expect(
        expectItem(await asA(request(t.server).patch(book('a1'))).send({ author: { id: ids['ann'] } })),
      ).toMatchObject({
        authorId: ids['ann'],
      });
      expect(
        expectItem(await asA(request(t.server).post(`${book('a1')}/relink`)).send({ authorId: ids['ann'] })),
      ).toMatchObject({ authorId: ids['ann'] });
    });

    it('leaves the other tenant free to delete its row', async () => {
      const res = await request(t.server).post('/authors').set('x-tenant', 'b').send({ name: 'Pinned?' });
      const id = expectItem(res, 201)['id'] as number;
      unresolved(await asA(request(t.server).patch(book('a1'))).send({ authorId: id }), id);
      expect((await request(t.server).delete(`/authors/${id}`).set('x-tenant', 'b')).status).toBe(204);
    });

    it('cannot attach another tenant’s member by JSON Patch', async () => {
      const res = await asA(request(t.server).patch(book('a1')))
        .set('Content-Type', 'application/json-patch+json')
        .send(JSON.stringify([{ op: 'add', path: '/tags/-', value: ids['tag-b'] }]));
      unresolved(res, ids['tag-b']!);
    });
  });

  describe('context.repository.loadRelation', () => {
    it('does not load a target outside the target’s filter.apply', async () => {
      expectItem(await asA(request(t.server).get(`${book('cross')}/author-probe`)));
      expect(seen.loaded).toEqual([null]);
    });

    it('serves only the target’s select.fields', async () => {
      expectItem(await asA(request(t.server).get(`${book('locked')}/author-probe`)));
      const [author] = seen.loaded as [Row];
      expect(author).toMatchObject({ id: ids['ann'], name: 'Ann' });
      expect(author).not.toHaveProperty('secret');
    });

    it('loads nothing for a parent outside the entity’s own filter.apply', async () => {
      expectItem(await asA(request(t.server).get(`${book('b1')}/reviews-probe`)));
      expect(seen.loaded).toEqual([[]]);
      await request(t.server)
        .get(`${book('b1')}/reviews-probe`)
        .set('x-tenant', 'b');
      expect((seen.loaded as Row[][])[0]).toHaveLength(1);
    });
  });

  describe('a relation-path filter in a custom read', () => {
    it('holds the related entity’s filter.apply, as findMany does', async () => {
      const query = `filter[author.name][eq]=Bob`;
      expect(expectList(await asA(request(t.server).get(`/books?${query}`).query({}))).items).toEqual([]);
      expect(expectList(await asA(request(t.server).get(`/books/by-author?${query}`))).items).toEqual([]);
      const own = expectList(await asA(request(t.server).get('/books/by-author?filter[author.name][eq]=Ann')));
      expect(own.items.map((item) => item['title']).sort()).toEqual(['A locked', 'A one']);
    });
  });

  describe('a row policy on a custom write addressed by :id', () => {
    it('receives the row, read in the write’s transaction, and refuses it', async () => {
      expectProblem(
        await asA(request(t.server).post(`${book('locked')}/relink`)).send({ authorId: null }),
        403,
        'SVC_FORBIDDEN',
      );
      expect((await bookRow('locked')).authorId).toBe(ids['ann']);
    });

    it('answers 404 for a row outside the scope, before the handler runs', async () => {
      expectProblem(
        await asA(request(t.server).post(`${book('b1')}/relink`)).send({ authorId: null }),
        404,
        'SVC_NOT_FOUND',
      );
      expect((await bookRow('b1')).authorId).toBe(ids['bob']);
    });
  });

  describe('a column that select.fields closes', () => {
    it('is not filterable or sortable by default', async () => {
      const filtered = expectProblem(
        await asA(request(t.server).get('/authors?filter[secret][startsWith]=a')),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(filtered.errors?.[0]).toMatchObject({ param: 'filter[secret]', code: 'field_not_filterable' });
      expectProblem(await asA(request(t.server).get('/authors?sort=secret')), 400, 'SVC_QUERY_INVALID');
      expectProblem(
        await asA(request(t.server).get('/authors?filter={"secret":{"eq":"a-secret"}}')),
        400,
        'SVC_QUERY_INVALID',
      );
    });

    it('is never suggested by did-you-mean', async () => {
      const problem = expectProblem(
        await asA(request(t.server).get('/authors?filter[secrets][eq]=a&sort=secrett')),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(JSON.stringify(problem)).not.toMatch(/'secret'/);
    });

    it('stays filterable and sortable when listed explicitly', async () => {
      const list = expectList(
        await asA(request(t.server).get('/listed-authors?filter[secret][eq]=a-secret&sort=secret')),
      );
      expect(list.items.map((item) => item['name'])).toEqual(['Ann']);
      expect(list.items[0]).not.toHaveProperty('secret');
    });
  });
});
