/**
 * Nested writes over REST on each database: a book created or changed with its author, tags and reviews in the same
 * body; each nested row held to its own entity's slot, `set`, policy and scope, in the parent's transaction (a
 * refused row in the middle leaves nothing written); limits and errors named by path; two tenants that never reach
 * or reveal each other's rows through a connect or a connect-or-create.
 */
import type { RealtimeEvent } from '@svc/core';
import type { RealtimeTransport } from '@svc/core/spi';
import request from 'supertest';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectItem, expectList, expectProblem } from './support/e2e-http';
import {
  AUTHOR_CONFIG,
  BOOK_CONFIG,
  NESTED_ENTITIES,
  NwAuthor,
  NwBook,
  NwReview,
  NwTag,
  REVIEW_CONFIG,
  TAG_CONFIG,
} from './support/nested-fixtures';

/** Every event the instance publishes, as a transport receives it. */
const published: RealtimeEvent[] = [];
const capture: RealtimeTransport = {
  name: 'capture',
  publish: (event) => {
    published.push(event);
    return Promise.resolve();
  },
};

describe.each(TEST_DATABASES)('Nested writes over REST on $name', (db) => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_nested_writes',
      entities: NESTED_ENTITIES,
      controllers: [
        svcController('books', NwBook, { ...BOOK_CONFIG, realtime: {} }),
        svcController('authors', NwAuthor, { ...AUTHOR_CONFIG, realtime: {} }),
        svcController('tags', NwTag, { ...TAG_CONFIG, realtime: {} }),
        svcController('reviews', NwReview, REVIEW_CONFIG),
      ],
      svc: { realtimeTransports: [capture] },
    });
    ids['ann'] = (await t.dataSource.getRepository(NwAuthor).save({ tenant: 'a', name: 'Ann' })).id;
    ids['bob'] = (await t.dataSource.getRepository(NwAuthor).save({ tenant: 'b', name: 'Bob' })).id;
    ids['classic'] = (await t.dataSource.getRepository(NwTag).save({ tenant: 'a', name: 'classic' })).id;
    ids['theirs'] = (await t.dataSource.getRepository(NwTag).save({ tenant: 'b', name: 'theirs' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const post = (tenant: string, path: string) => request(t.server).post(path).set('x-tenant', tenant);
  const patch = (tenant: string, path: string) => request(t.server).patch(path).set('x-tenant', tenant);
  const count = (entity: Function) => t.dataSource.getRepository(entity).count();
  const counts = async () => [await count(NwBook), await count(NwAuthor), await count(NwTag), await count(NwReview)];
  const withRelations = (id: unknown, tenant = 'a') =>
    request(t.server)
      .get(`/books/${String(id)}?include=author,tags,reviews`)
      .set('x-tenant', tenant);

  it('creates a book with a new author, an existing tag, a new tag and two reviews, in one write', async () => {
    const created = expectItem(
      await post('a', '/books').send({
        title: 'Nested',
        author: { create: { name: 'Nina' } },
        tags: [
          { connect: { id: ids['classic'] } },
          { create: { name: 'fresh' } },
          { connectOrCreate: { where: { name: 'classic' }, create: {} } },
          { connectOrCreate: { where: { name: 'brand-new' }, create: {} } },
        ],
        reviews: [{ create: { rating: 5 } }, { create: { rating: 3 } }],
      }),
      201,
    );
    const book = expectItem(await withRelations(created['id']));
    expect((book['author'] as { name: string; tenant: string }).name).toBe('Nina');
    expect((book['author'] as { tenant: string }).tenant).toBe('a');
    expect((book['tags'] as { name: string }[]).map((tag) => tag.name).sort()).toEqual([
      'brand-new',
      'classic',
      'fresh',
    ]);
    expect((book['reviews'] as { rating: number; tenant: string }[]).map((review) => review.rating).sort()).toEqual([
      3, 5,
    ]);
    for (const review of book['reviews'] as { tenant: string }[]) expect(review.tenant).toBe('a');
  });

  it('patches a book, connecting an existing author and adding a review', async () => {
    const book = expectItem(await post('a', '/books').send({ title: 'Plain' }), 201);
    expectItem(
      await patch('a', `/books/${String(book['id'])}`).send({
        author: { connect: { id: ids['ann'] } },
        reviews: [{ create: { rating: 4 } }],
      }),
    );
    const read = expectItem(await withRelations(book['id']));
    expect((read['author'] as { name: string }).name).toBe('Ann');
    expect((read['reviews'] as { rating: number }[]).map((review) => review.rating)).toEqual([4]);
  });

  it('a refused nested row in the middle leaves nothing written, naming its path', async () => {
    const before = await counts();
    const refused = expectProblem(
      await post('a', '/books').send({
        title: 'Never',
        author: { create: { name: 'Ghost' } },
        tags: [{ create: { name: 'fine' } }, { create: { name: 'x', colour: 'red' } }],
      }),
      400,
      'SVC_VALIDATION_FAILED',
    );
    expect(refused.errors).toEqual([expect.objectContaining({ field: 'tags[1].create.colour', code: 'not_writable' })]);
    const forbidden = expectProblem(
      await post('a', '/books').send({
        title: 'Never',
        tags: [{ create: { name: 'ok' } }, { create: { name: 'forbidden' } }],
      }),
      403,
      'SVC_FORBIDDEN',
    );
    expect(forbidden.detail).toContain('tags[1]');
    // A conflict raised by the database on the last row rolls back the rows before it.
    expectProblem(
      await post('a', '/books').send({
        title: 'Never',
        author: { create: { name: 'Ghost' } },
        tags: [{ create: { name: 'twin' } }, { create: { name: 'twin' } }],
      }),
      409,
      'SVC_CONFLICT',
    );
    expect(await counts()).toEqual(before);
  });

  it('names the path of a bad form, a form the relation does not take, too many members and too deep', async () => {
    const bad = expectProblem(
      await post('a', '/books').send({
        title: 'Bad',
        author: { connect: { id: 'x' } },
        reviews: [{ connectOrCreate: { where: { id: 1 }, create: {} } }, 7],
        tags: [1, 2, 3, 4, 5, 6].map((n) => ({ create: { name: `t${n}` } })),
      }),
      400,
      'SVC_VALIDATION_FAILED',
    );
    expect(bad.errors!.map((error) => [error.field, error.code])).toEqual([
      ['author.connect', 'invalid_value'],
      ['tags', 'too_many_members'],
      ['reviews[0].connectOrCreate', 'not_allowed'],
      ['reviews[1]', 'invalid_value'],
    ]);
  });

  it('never reaches or reveals another tenant’s rows through connect or connect-or-create', async () => {
    const before = await counts();
    const author = expectProblem(
      await post('a', '/books').send({ title: 'Cross', author: { connect: { id: ids['bob'] } } }),
      422,
      'SVC_UNRESOLVED_RELATION',
    );
    const missing = expectProblem(
      await post('a', '/books').send({ title: 'Cross', author: { connect: { id: 987654 } } }),
      422,
      'SVC_UNRESOLVED_RELATION',
    );
    expect(author.detail.replace(String(ids['bob']), '<id>')).toBe(missing.detail.replace('987654', '<id>'));
    expectProblem(
      await post('a', '/books').send({ title: 'Cross', tags: [{ connect: { id: ids['theirs'] } }] }),
      422,
      'SVC_UNRESOLVED_RELATION',
    );
    // A unique name tenant b holds: a conflict, never b's row.
    const taken = expectProblem(
      await post('a', '/books').send({
        title: 'Cross',
        tags: [{ connectOrCreate: { where: { name: 'theirs' }, create: {} } }],
      }),
      409,
      'SVC_CONFLICT',
    );
    expect(taken.detail).not.toMatch(new RegExp(`\\b${ids['theirs']}\\b`));
    expect(taken.detail).not.toContain('tenant');
    expect(await counts()).toEqual(before);
    const list = expectList(await request(t.server).get('/tags').set('x-tenant', 'b'));
    expect(list.items.map((tag) => tag['name'])).toEqual(['theirs']);
  });

  it('publishes each created row’s own event after the commit, and none for a write that rolled back', async () => {
    published.length = 0;
    const created = expectItem(
      await post('a', '/books').send({
        title: 'Evented',
        author: { create: { name: 'Eve' } },
        tags: [{ create: { name: 'evented-1' } }, { connect: { id: ids['classic'] } }],
      }),
      201,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const seen = published.map((event) => `${event.entity}.${event.event}`).sort();
    expect(seen).toEqual(['NwAuthor.created', 'NwBook.created', 'NwTag.created']);
    expect(published.find((event) => event.entity === 'NwBook')!.id).toBe(created['id']);
    published.length = 0;
    expectProblem(
      await post('a', '/books').send({
        title: 'Rolled back',
        author: { create: { name: 'Nobody' } },
        tags: [{ create: { name: 'classic' } }],
      }),
      409,
      'SVC_CONFLICT',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(published).toEqual([]);
  });

  it('two requests connecting-or-creating the same new tag at once make one tag, and both succeed', async () => {
    const body = (title: string) => ({ title, tags: [{ connectOrCreate: { where: { name: 'raced' }, create: {} } }] });
    const [first, second] = await Promise.all([
      post('a', '/books').send(body('Race 1')),
      post('a', '/books').send(body('Race 2')),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await t.dataSource.getRepository(NwTag).countBy({ name: 'raced' })).toBe(1);
    for (const res of [first, second]) {
      const book = expectItem(await withRelations(res.body.id));
      expect((book['tags'] as { name: string }[]).map((tag) => tag.name)).toEqual(['raced']);
    }
  });

  it('a batch create writes each item’s nested rows, and a nested problem names the item and the path', async () => {
    const res = await post('a', '/books/batch').send([
      { title: 'Batch 1', tags: [{ connectOrCreate: { where: { name: 'batched' }, create: {} } }] },
      {
        title: 'Batch 2',
        author: { create: { name: 'Bea' } },
        tags: [{ connectOrCreate: { where: { name: 'batched' }, create: {} } }],
      },
    ]);
    expect(res.status).toBe(201);
    const [first, second] = (res.body as { items: { id: number }[] }).items;
    expect(await t.dataSource.getRepository(NwTag).countBy({ name: 'batched' })).toBe(1);
    const two = expectItem(await withRelations(second!.id));
    expect((two['author'] as { name: string }).name).toBe('Bea');
    expect((expectItem(await withRelations(first!.id))['tags'] as { name: string }[])[0]!.name).toBe('batched');
    const before = await counts();
    const refused = expectProblem(
      await post('a', '/books/batch').send([
        { title: 'Fine', author: { create: { name: 'Fine' } } },
        { title: 'Bad', tags: [{ create: { name: 'ok' } }, { create: { name: 'ok', tenant: 'b' } }] },
      ]),
      400,
      'SVC_VALIDATION_FAILED',
    );
    expect(refused.errors).toEqual([
      expect.objectContaining({ field: '[1].tags[1].create.tenant', code: 'not_writable' }),
    ]);
    expect(await counts()).toEqual(before);
  });

  it('updates a connected author through its own patch rules, and never another tenant’s', async () => {
    const book = expectItem(await post('a', '/books').send({ title: 'Updating' }), 201);
    expectItem(
      await patch('a', `/books/${String(book['id'])}`).send({
        author: { update: { where: { id: ids['ann'] }, data: { name: 'Ann B' } } },
      }),
    );
    const read = expectItem(await withRelations(book['id']));
    expect((read['author'] as { name: string }).name).toBe('Ann B');
    const refused = expectProblem(
      await patch('a', `/books/${String(book['id'])}`).send({
        author: { update: { where: { id: ids['bob'] }, data: { name: 'Hijacked' } } },
      }),
      422,
      'SVC_UNRESOLVED_RELATION',
    );
    expect(JSON.stringify(refused)).not.toContain('Bob');
    expect((await t.dataSource.getRepository(NwAuthor).findOneByOrFail({ id: ids['bob']! })).name).toBe('Bob');
  });

  it('a nested row follows its entity’s access rule, and nests no deeper than its relation allows', async () => {
    const before = await counts();
    const junior = expectProblem(
      await post('a', '/books')
        .set('x-role', 'junior')
        .send({ title: 'Junior', author: { create: { name: 'J' } } }),
      403,
      'SVC_FORBIDDEN',
    );
    expect(junior.detail).toContain('author');
    const deep = expectProblem(
      await post('a', '/books').send({
        title: 'Deep',
        author: { create: { name: 'Deep', books: [{ create: { title: 'Inner' } }] } },
      }),
      400,
      'SVC_VALIDATION_FAILED',
    );
    expect(deep.errors).toEqual([expect.objectContaining({ field: 'author.create.books', code: 'too_deep' })]);
    expect(await counts()).toEqual(before);
    // One level down is within the author's own limit: an author created with a book of its own.
    const created = expectItem(
      await post('a', '/authors').send({ name: 'Parent', books: [{ create: { title: 'Child' } }] }),
      201,
    );
    const books = await t.dataSource.getRepository(NwBook).findBy({ authorId: created['id'] as number });
    expect(books.map((row) => [row.title, row.tenant])).toEqual([['Child', 'a']]);
  });
});
