/**
 * Sorting by a to-one relation path (`sort=author.name`) listed on `sort.fields`: under offset, page and none it orders
 * by the related row's value, inside the related entity's own `filter.apply` (a hidden row lends no value); under
 * cursor and since it is a 400 naming the key; a path that cannot give one value per row fails bootstrap.
 */
import type { EntityConfig, SvcContext } from '@svc/core';
import request from 'supertest';
import { Author, Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectProblem } from './support/e2e-http';

function countryOf(context: SvcContext): string | undefined {
  const value = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers?.['x-country'];
  return typeof value === 'string' ? value : undefined;
}

const SORTED: EntityConfig = { sort: { fields: ['title', 'author.name', 'author.country'] } };

describe.each(TEST_DATABASES)('Sorting by a relation path on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_relation_sort',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('authors', Author, {
          filter: {
            apply: ({ context }) => (countryOf(context) ? { country: { eq: countryOf(context) } } : undefined),
          },
        }),
        svcController('books', Book, SORTED),
        svcController('page-books', Book, { ...SORTED, pagination: { strategy: 'page' } }),
        svcController('all-books', Book, { ...SORTED, pagination: { strategy: 'none' } }),
        svcController('cursor-books', Book, { ...SORTED, pagination: { strategy: 'cursor' } }),
        svcController('since-books', Book, {
          sort: { fields: [...(SORTED.sort!.fields as string[]), 'updatedAt'] },
          pagination: { strategy: 'since' },
        }),
      ],
    });
    const authors = t.dataSource.getRepository(Author);
    const cid = await authors.save({ name: 'Cid', country: 'se' });
    const ann = await authors.save({ name: 'Ann', country: 'se' });
    const bob = await authors.save({ name: 'Bob', country: 'no' });
    const books = t.dataSource.getRepository(Book);
    for (const [title, author] of [
      ['by Cid', cid],
      ['by nobody', null],
      ['by Ann', ann],
      ['by Bob', bob],
    ] as const) {
      await books.save({ title, authorId: author?.id ?? null });
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  const titles = async (path: string, country?: string) => {
    const req = request(t.server).get(path);
    const res = await (country ? req.set('x-country', country) : req);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { items: { title: string }[] }).items.map((item) => item.title);
  };

  it('orders by the related value under offset, a row without one last', async () => {
    expect(await titles('/books?sort=author.name')).toEqual(['by Ann', 'by Bob', 'by Cid', 'by nobody']);
    expect(await titles('/books?sort=-author.name')).toEqual(['by nobody', 'by Cid', 'by Bob', 'by Ann']);
  });

  it('breaks ties with the next keys and the primary key', async () => {
    expect(await titles('/books?sort=-author.country,title')).toEqual(['by nobody', 'by Ann', 'by Cid', 'by Bob']);
  });

  it('works under page and none', async () => {
    expect(await titles('/page-books?sort=author.name&page[size]=2&page[number]=2')).toEqual(['by Cid', 'by nobody']);
    expect(await titles('/all-books?sort=author.name')).toEqual(['by Ann', 'by Bob', 'by Cid', 'by nobody']);
  });

  it('takes no value from a related row outside its filter.apply', async () => {
    // Bob (country no) is hidden from a caller scoped to se: his book sorts as one without an author.
    expect(await titles('/books?sort=author.name', 'se')).toEqual(['by Ann', 'by Cid', 'by nobody', 'by Bob']);
  });

  it('is refused under cursor with a 400 naming the key', async () => {
    const problem = expectProblem(
      await request(t.server).get('/cursor-books?sort=author.name'),
      400,
      'SVC_QUERY_INVALID',
    );
    expect(problem.errors?.[0]).toMatchObject({ param: 'sort', code: 'cursor_sort' });
    expect(problem.errors?.[0]?.detail).toContain("'author.name'");
  });

  it('is refused under since, which sets the order itself', async () => {
    expectProblem(await request(t.server).get('/since-books?sort=author.name'), 400, 'SVC_QUERY_UNSUPPORTED_PARAM');
  });

  describe('at bootstrap', () => {
    const boot = (config: EntityConfig) =>
      bootstrapFailure({
        db,
        suite: 'e2e_relation_sort_boot',
        entities: BOOKSTORE_ENTITIES,
        controllers: [svcController('books', Book, config)],
      });

    it.each(['reviews.rating', 'tags.name'])('refuses %s, a to-many path, naming it', async (path) => {
      const error = await boot({ sort: { fields: ['title', path] } });
      expect(error.message).toContain('sort.fields');
      expect(error.message).toContain(`'${path}'`);
    });

    it('refuses a relation path in sort.default under cursor', async () => {
      const error = await boot({
        sort: { fields: ['author.name'], default: ['author.name', 'id'] },
        pagination: { strategy: 'cursor' },
      });
      expect(error.message).toContain('sort.default');
    });
  });
});
