/**
 * Aggregates (`GET /aggregate`, `service.aggregate`, MCP `<entity>_aggregate`) on two tenants of one database: values
 * checked against SQL written here by hand (decimals, bigints past 2^53, nulls, empty match sets, a to-one path with a
 * missing or out-of-scope related row), the caller's scope on every surface, hidden columns, each refusal with its
 * code and the name it gives, maxGroups, the result cache, the policy, the OpenAPI document and the boot checks.
 */
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { SvcService, type EntityConfig, type PolicyFunction } from '@svc/core';
import { SvcRegistry } from '@svc/nestjs';
import request from 'supertest';
import { Column, DeleteDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp, type McpTestClient } from './support/mcp-clients';
import { callerOf } from './support/mcp-fixtures';
import { expectProblem } from './support/e2e-http';
import { dereferenced, validateOpenApi } from '../support/openapi-checks';

@Entity('ag_author')
class AgAuthor {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 60 }) name!: string;
  @Column({ type: 'varchar', length: 20, nullable: true }) country!: string | null;
}

@Entity('ag_book')
class AgBook {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) title!: string;
  @Column({ type: 'int', default: 0 }) pages!: number;
  @Column({ type: 'decimal', precision: 10, scale: 2, nullable: true }) price!: string | null;
  @Column({ type: 'boolean', default: false }) published!: boolean;
  @Column({ type: Date, nullable: true }) publishedAt!: Date | null;
  @Column({ type: 'bigint', default: 0 }) views!: string | number;
  @Column({ type: 'int', default: 0 }) secret!: number;
  @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => AgAuthor, { nullable: true })
  @JoinColumn({ name: 'authorId' })
  author!: AgAuthor | null;
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}

const tenantOf = (context: Parameters<PolicyFunction>[0]['context']) => callerOf(context)?.tenant ?? 'nobody';

const scoped = (extra: EntityConfig): EntityConfig => ({
  ...extra,
  filter: { ...extra.filter, apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
  set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
});

/** Who called with which operation: the policy sees `aggregate` by name. */
const asked: string[] = [];
const policy: PolicyFunction = ({ operation, context }) => {
  asked.push(operation);
  return callerOf(context)?.role !== 'blocked';
};

const FIELDS = ['id', 'tenant', 'title', 'pages', 'price', 'published', 'publishedAt', 'views', 'authorId'];
const booksController = svcController(
  'books',
  AgBook,
  scoped({
    policy,
    select: { fields: FIELDS },
    filter: { fields: ['title', 'pages', 'published', 'author.country'] },
    search: { fields: ['title'] },
    schema: { input: { create: ['title', 'pages', 'price', 'published', 'authorId'] } },
    aggregate: { groupBy: ['published', 'authorId', 'author.country'] },
  }),
);

describe.each(TEST_DATABASES)('Aggregates on $name', (db) => {
  let t: McpApp;
  let http: ReturnType<McpApp['app']['getHttpServer']>;
  const authors: Record<string, number> = {};

  beforeAll(async () => {
    t = await startMcpApp({
      db,
      suite: 'e2e_aggregates',
      entities: [AgAuthor, AgBook],
      controllers: [
        booksController,
        svcController('authors', AgAuthor, scoped({})),
        // A hidden column listed explicitly, and at most two groups a call.
        svcController(
          'listed-books',
          AgBook,
          scoped({
            select: { fields: FIELDS },
            aggregate: {
              fields: { secret: ['sum'], authorId: ['countDistinct'] },
              groupBy: ['secret'],
              limits: { maxGroups: 2 },
            },
          }),
        ),
        // Unscoped and cached: a write drops the cached aggregate.
        svcController('cached-books', AgBook, { cache: { ttl: 60 }, aggregate: {} }),
        svcController('plain-books', AgBook, {}),
      ],
    });
    http = t.app.getHttpServer();
    const repo = t.dataSource.getRepository(AgAuthor);
    authors['ann'] = (await repo.save({ tenant: 'a', name: 'Ann', country: 'UK' })).id;
    authors['bo'] = (await repo.save({ tenant: 'a', name: 'Bo', country: null })).id;
    authors['bob'] = (await repo.save({ tenant: 'b', name: 'Bob', country: 'FR' })).id;
    const books = t.dataSource.getRepository(AgBook);
    const row = (values: Partial<AgBook>) => ({
      tenant: 'a',
      pages: 0,
      published: false,
      views: 0,
      secret: 0,
      ...values,
    });
    await books.save([
      row({
        title: 'a1',
        pages: 100,
        price: '0.10',
        published: true,
        publishedAt: new Date('2020-01-01T00:00:00Z'),
        views: '9007199254740991',
        secret: 1,
        authorId: authors['ann']!,
      }),
      row({
        title: 'a2',
        pages: 200,
        price: '0.20',
        published: true,
        publishedAt: new Date('2021-06-01T12:30:00Z'),
        views: 10,
        secret: 2,
        authorId: authors['bo']!,
      }),
      row({ title: 'a3', pages: 50, price: null, secret: 3 }),
      // Its author is the other tenant's: out of this caller's scope, it lends no country.
      row({ title: 'a4', pages: 70, price: '1.05', secret: 3, authorId: authors['bob']! }),
      row({
        title: 'a5',
        pages: 999,
        price: '5.00',
        published: true,
        authorId: authors['ann']!,
        deletedAt: new Date(),
      }),
      row({ tenant: 'b', title: 'b1', pages: 1000, price: '9.99', published: true, authorId: authors['bob']! }),
      row({ tenant: 'b', title: 'b2', pages: 3000, price: null }),
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const as = (tenant: string, req: request.Test, role = 'editor') => req.set('x-user', `user:${tenant}:${role}`);
  const aggregate = async (tenant: string, query: string, path = 'books') => {
    const res = await as(tenant, request(http).get(`/${path}/aggregate?${query}`));
    expect(res.status).toBe(200);
    return res.body as { items: Record<string, unknown>[]; limit: number; offset: number; total: number | null };
  };

  /** Hand-written SQL over the test's own tables, quoted for this database. */
  const q = (name: string) => t.dataSource.driver.escape(name);
  const table = (target: Function) => t.dataSource.getMetadata(target).tablePath.split('.').map(q).join('.');
  const sql = async (text: string) => (await t.dataSource.query(text)) as Record<string, unknown>[];
  /** A decimal as the database's exact text, whatever the driver hands back (a string, or a number on SQLite). */
  const decimal = (value: unknown) => (value === null ? null : Number(value).toFixed(2));
  const live = () => `${q('deletedAt')} IS NULL`;

  it('counts and aggregates the whole match set as SQL does, exactly', async () => {
    const body = await aggregate(
      'a',
      'count&sum=pages,price,views&avg=pages&min=publishedAt,pages&max=publishedAt,price',
    );
    const [hand] = await sql(
      `SELECT COUNT(*) AS n, SUM(${q('pages')}) AS sp, SUM(${q('price')}) AS spr, AVG(${q('pages')}) AS ap, MIN(${q('pages')}) AS mp, MAX(${q('price')}) AS mpr FROM ${table(AgBook)} WHERE ${q('tenant')} = 'a' AND ${live()}`,
    );
    expect(body.total).toBe(1);
    expect(body.items).toHaveLength(1);
    const item = body.items[0] as Record<string, Record<string, unknown>> & { count: number };
    expect(item.group).toEqual({});
    expect(item.count).toBe(Number(hand!['n']));
    expect(item.count).toBe(4);
    expect(item.sum).toEqual({ pages: Number(hand!['sp']), price: decimal(hand!['spr']), views: '9007199254741001' });
    expect(item.sum!['price']).toBe('1.35');
    expect(item.avg!['pages']).toBeCloseTo(Number(hand!['ap']), 9);
    expect(item.min).toEqual({ publishedAt: '2020-01-01T00:00:00.000Z', pages: Number(hand!['mp']) });
    // A maximum is served as the rows serve the column (a decimal: its exact string, a number on SQLite).
    const [row] = (await as('a', request(http).get('/books?filter[title][eq]=a4&select=price'))).body.items;
    expect(item.max).toEqual({ publishedAt: '2021-06-01T12:30:00.000Z', price: row.price });
    expect(Number(item.max!['price'])).toBe(Number(hand!['mpr']));
  });

  it('groups by an own column, each group as GROUP BY computes it', async () => {
    const body = await aggregate('a', 'groupBy=published&sum=pages,price&avg=pages&sort=published');
    const hand = await sql(
      `SELECT ${q('published')} AS g, COUNT(*) AS n, SUM(${q('pages')}) AS sp, SUM(${q('price')}) AS spr FROM ${table(AgBook)} WHERE ${q('tenant')} = 'a' AND ${live()} GROUP BY ${q('published')} ORDER BY ${q('published')}`,
    );
    expect(body.total).toBe(hand.length);
    expect(body.items).toEqual(
      hand.map((row) => ({
        group: { published: Boolean(Number(row['g'])) },
        count: Number(row['n']),
        sum: { pages: Number(row['sp']), price: decimal(row['spr']) },
        avg: { pages: expect.closeTo(Number(row['sp']) / Number(row['n']), 9) },
      })),
    );
    // The unpublished group holds a null price: it is left out of the sum, never counted as zero.
    expect(body.items[0]).toMatchObject({ group: { published: false }, count: 2, sum: { price: '1.05' } });
  });

  it('groups by a to-one path: a missing, null or out-of-scope related row groups under null', async () => {
    const body = await aggregate('a', 'groupBy=author.country&sum=pages&sort=author.country');
    const hand = await sql(
      `SELECT ${q('svc_a')}.${q('country')} AS g, COUNT(*) AS n, SUM(${q('b')}.${q('pages')}) AS sp FROM ${table(AgBook)} ${q('b')} LEFT JOIN ${table(AgAuthor)} ${q('svc_a')} ON ${q('svc_a')}.${q('id')} = ${q('b')}.${q('authorId')} AND ${q('svc_a')}.${q('tenant')} = 'a' WHERE ${q('b')}.${q('tenant')} = 'a' AND ${q('b')}.${live()} GROUP BY ${q('svc_a')}.${q('country')}`,
    );
    const byKey = new Map(hand.map((row) => [row['g'] ?? null, row]));
    expect(body.items).toEqual([
      { group: { 'author.country': 'UK' }, count: Number(byKey.get('UK')!['n']), sum: { pages: 100 } },
      { group: { 'author.country': null }, count: Number(byKey.get(null)!['n']), sum: { pages: 320 } },
    ]);
    expect(body.items[1]!['count']).toBe(3);
  });

  it('answers one group of zero over an empty match set, with null sums', async () => {
    const body = await aggregate('a', 'filter[title][eq]=none&sum=pages&avg=pages&min=pages');
    expect(body).toEqual({
      items: [{ group: {}, count: 0, sum: { pages: null }, avg: { pages: null }, min: { pages: null } }],
      limit: 1000,
      offset: 0,
      total: 1,
    });
    const grouped = await aggregate('a', 'groupBy=published&filter[title][eq]=none');
    expect(grouped).toMatchObject({ items: [], total: 0 });
  });

  it("never counts the other tenant's rows", async () => {
    const a = await aggregate('a', 'sum=pages');
    const b = await aggregate('b', 'sum=pages');
    expect(a.items[0]).toMatchObject({ count: 4, sum: { pages: 420 } });
    expect(b.items[0]).toMatchObject({ count: 2, sum: { pages: 4000 } });
    const byAuthor = await aggregate('b', 'groupBy=author.country&sort=author.country');
    expect(byAuthor.items).toEqual([
      { group: { 'author.country': 'FR' }, count: 1 },
      { group: { 'author.country': null }, count: 1 },
    ]);
    const nobody = await aggregate('z', 'groupBy=published');
    expect(nobody).toMatchObject({ items: [], total: 0 });
  });

  it('takes the list grammar: filter (relation paths too), search, and the deleted rows on request', async () => {
    expect((await aggregate('a', 'filter={"pages":{"gte":100}}')).items[0]).toMatchObject({ count: 2 });
    expect((await aggregate('a', 'filter[author.country][eq]=UK')).items[0]).toMatchObject({ count: 1 });
    expect((await aggregate('a', 'search[query]=a1')).items[0]).toMatchObject({ count: 1 });
    expect((await aggregate('a', 'withDeleted=true&sum=pages')).items[0]).toMatchObject({
      count: 5,
      sum: { pages: 1419 },
    });
    expect((await aggregate('a', 'onlyDeleted=true')).items[0]).toMatchObject({ count: 1 });
  });

  it('orders and pages over groups, with the total counting every group', async () => {
    const all = await aggregate('a', 'groupBy=authorId&sort=-count,authorId');
    expect(all.total).toBe(4);
    expect(all.items.map((item) => item['count'])).toEqual([1, 1, 1, 1]);
    // Ordering by a function computes and answers it, asked for or not.
    const page = await aggregate('a', 'groupBy=published&sort=-sum.pages&limit=1&offset=1');
    expect(page).toEqual({
      items: [{ group: { published: false }, count: 2, sum: { pages: 120 } }],
      limit: 1,
      offset: 1,
      total: 2,
    });
    // Null groups sort as larger than any value: last ascending, first descending.
    const desc = await aggregate('a', 'groupBy=author.country&sort=-author.country');
    expect(desc.items.map((item) => (item['group'] as Record<string, unknown>)['author.country'])).toEqual([
      null,
      'UK',
    ]);
  });

  it.each([
    ['sum=secret', 'SVC_QUERY_INVALID', 'sum', 'field_not_aggregatable'],
    ['sum=title', 'SVC_QUERY_INVALID', 'sum', 'field_not_aggregatable'],
    ['countDistinct=pages', 'SVC_QUERY_INVALID', 'countDistinct', 'field_not_aggregatable'],
    ['groupBy=title', 'SVC_QUERY_INVALID', 'groupBy', 'field_not_groupable'],
    ['groupBy=secret', 'SVC_QUERY_INVALID', 'groupBy', 'field_not_groupable'],
    ['groupBy=published,published', 'SVC_QUERY_INVALID', 'groupBy', 'repeated'],
    ['sort=published', 'SVC_QUERY_INVALID', 'sort', 'field_not_sortable'],
    ['sort=sum.title', 'SVC_QUERY_INVALID', 'sort', 'field_not_sortable'],
    ['sort=title', 'SVC_QUERY_INVALID', 'sort', 'field_not_sortable'],
    ['limit=0', 'SVC_QUERY_INVALID', 'limit', 'invalid_value'],
    ['offset=-1', 'SVC_QUERY_INVALID', 'offset', 'invalid_value'],
    ['count=yes', 'SVC_QUERY_INVALID', 'count', 'invalid_value'],
    ['filter[secret][eq]=1', 'SVC_QUERY_INVALID', 'filter[secret]', undefined],
    ['select=title', 'SVC_QUERY_UNSUPPORTED_PARAM', 'select', 'unsupported_param'],
    ['include=author', 'SVC_QUERY_UNSUPPORTED_PARAM', 'include', 'unsupported_param'],
    ['page[number]=1', 'SVC_QUERY_UNSUPPORTED_PARAM', 'page[number]', 'unsupported_param'],
    ['median=pages', 'SVC_QUERY_UNSUPPORTED_PARAM', 'median', 'unsupported_param'],
  ])('refuses %s with %s naming %s', async (query, code, param, itemCode) => {
    const res = await as('a', request(http).get(`/books/aggregate?${query}`));
    expectProblem(res, 400, code);
    expect(res.body.errors[0]).toMatchObject({ param, ...(itemCode ? { code: itemCode } : {}) });
  });

  it('serves a hidden column only where it is listed, and answers at most maxGroups groups', async () => {
    const body = await aggregate('a', 'groupBy=secret&sum=secret&countDistinct=authorId&sort=secret', 'listed-books');
    expect(body).toEqual({
      items: [
        { group: { secret: 1 }, count: 1, sum: { secret: 1 }, countDistinct: { authorId: 1 } },
        { group: { secret: 2 }, count: 1, sum: { secret: 2 }, countDistinct: { authorId: 1 } },
      ],
      limit: 2,
      offset: 0,
      total: 3,
    });
    // A larger limit is held to maxGroups, as a list's limit is held to maxLimit; the rest is paged with offset.
    const clamped = await aggregate('a', 'groupBy=secret&limit=50&offset=2&sort=secret', 'listed-books');
    expect(clamped).toMatchObject({ items: [{ group: { secret: 3 }, count: 2 }], limit: 2, total: 3 });
    // Listing fields closes the list: pages takes nothing there.
    expectProblem(await as('a', request(http).get('/listed-books/aggregate?sum=pages')), 400, 'SVC_QUERY_INVALID');
  });

  it('asks the policy with the operation aggregate, and refuses with 403', async () => {
    asked.length = 0;
    await aggregate('a', 'count');
    expect(asked).toEqual(['aggregate']);
    expectProblem(await as('a', request(http).get('/books/aggregate'), 'blocked'), 403, 'SVC_FORBIDDEN');
  });

  it('is served only where aggregate is on: elsewhere /aggregate is a row id', async () => {
    const res = await request(http).get('/plain-books/aggregate');
    expect(res.body).toMatchObject({ status: 400, errors: [{ param: 'id', code: 'invalid_value' }] });
  });

  it('serves from the result cache, and a write drops the cached aggregate', async () => {
    const count = async () =>
      ((await request(http).get('/cached-books/aggregate')).body.items[0] as { count: number }).count;
    const before = await count();
    // A row written behind Svc's back is not seen while the entry lives: the answer came from the cache.
    await t.dataSource.getRepository(AgBook).save({ tenant: 'c', title: 'behind', pages: 1, views: 0 });
    expect(await count()).toBe(before);
    await request(http).post('/cached-books').send({ tenant: 'c', title: 'through', pages: 1 }).expect(201);
    expect(await count()).toBe(before + 2);
    await t.dataSource.getRepository(AgBook).delete({ tenant: 'c' });
  });

  it('answers the same through service.aggregate, under the same rules', async () => {
    const service = new SvcService(t.app.get(SvcRegistry).engineFor(booksController));
    const context = { user: { id: 'user', tenant: 'a', role: 'editor' } };
    const result = await service.aggregate({ groupBy: ['published'], sum: ['pages'], sort: '-count' }, { context });
    const rest = await aggregate('a', 'groupBy=published&sum=pages&sort=-count');
    expect(result).toEqual(rest);
    await expect(service.aggregate({ sum: 'secret' }, { context })).rejects.toMatchObject({
      code: 'SVC_QUERY_INVALID',
    });
    // Numbers out of range are the caller's mistake, named like the wire's.
    await expect(service.aggregate({ limit: 0 }, { context })).rejects.toMatchObject({
      code: 'SVC_QUERY_INVALID',
      errors: [{ param: 'limit' }],
    });
    await expect(service.aggregate({ offset: -2, count: true }, { context })).rejects.toMatchObject({
      code: 'SVC_QUERY_INVALID',
      errors: [{ param: 'offset' }],
    });
  });

  it('documents GET /aggregate in the OpenAPI document: its parameters and its groups', async () => {
    const config = new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle('aggregates').setVersion('1').build();
    const document = SwaggerModule.createDocument(t.app, config);
    await validateOpenApi(document);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a dereferenced document, read by path
    const paths = dereferenced(document).paths as Record<string, Record<string, Record<string, any>>>;
    const operation = paths['/books/aggregate']!['get']!;
    const names = operation['parameters'].map((parameter: { name: string }) => parameter.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'groupBy',
        'count',
        'sum',
        'avg',
        'min',
        'max',
        'sort',
        'limit',
        'offset',
        'filter',
        'search[query]',
      ]),
    );
    expect(names).not.toContain('select');
    expect(names).not.toContain('countDistinct');
    const sum = operation['parameters'].find((parameter: { name: string }) => parameter.name === 'sum');
    expect(sum.schema.items.enum).toEqual(['pages', 'price', 'views']);
    const schema = operation['responses']['200'].content['application/json'].schema;
    expect(schema.properties.items.items.properties.sum.properties.price).toMatchObject({ type: ['string', 'null'] });
    expect(paths['/plain-books/aggregate']).toBeUndefined();
  });

  describe('on MCP', () => {
    let client: McpTestClient;

    beforeAll(async () => {
      client = await connectMcp('v2 client, 2026-07-28', { url: t.url, headers: { 'x-user': 'user:a:editor' } });
    });

    afterAll(async () => {
      await client?.close();
    });

    it('lists ag_book_aggregate as a read-only tool with typed arguments and result', async () => {
      const tools = new Map((await client.listTools()).map((tool) => [tool.name, tool]));
      const tool = tools.get('ag_book_aggregate');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
      expect(tool?.inputSchema).toMatchObject({
        properties: { groupBy: { items: { enum: ['published', 'authorId', 'author.country'] } } },
      });
      expect(Object.keys((tool?.inputSchema as { properties: object }).properties)).not.toContain('select');
    });

    it("answers as REST does, inside the caller's scope", async () => {
      const res = await client.callTool('ag_book_aggregate', {
        groupBy: ['author.country'],
        sum: ['pages', 'price'],
        sort: ['author.country'],
        filter: { pages: { gte: 50 } },
      });
      expect(res.isError).toBeFalsy();
      const rest = await aggregate(
        'a',
        'groupBy=author.country&sum=pages,price&sort=author.country&filter[pages][gte]=50',
      );
      expect(res.structuredContent).toEqual(rest);
      expect(rest.items.reduce((sum, item) => sum + (item['count'] as number), 0)).toBe(4);
    });

    it('refuses an argument outside the allowlists as a tool error', async () => {
      const res = await client.callTool('ag_book_aggregate', { sum: ['secret'] });
      expect(res.isError).toBe(true);
    });
  });

  describe('at boot', () => {
    it.each([
      [{ aggregate: { fieldz: {} } }, /aggregate\.fieldz.*Did you mean 'fields'/s],
      [{ aggregate: { fields: { nope: ['sum'] } } }, /aggregate\.fields\.nope.*not a column/s],
      [{ aggregate: { fields: { title: ['sum'] } } }, /aggregate\.fields\.title.*'sum'/s],
      [{ aggregate: { fields: { pages: ['count'] } } }, /aggregate\.fields\.pages.*always served/s],
      [{ aggregate: { fields: { pages: ['median'] } } }, /aggregate\.fields\.pages.*'median'/s],
      [{ aggregate: { fields: { pages: [] } } }, /aggregate\.fields\.pages.*non-empty/s],
      [{ aggregate: { groupBy: ['nope'] } }, /aggregate\.groupBy.*'nope'/s],
      [{ aggregate: { groupBy: ['author.nope'] } }, /aggregate\.groupBy.*'author\.nope'.*AgAuthor/s],
      [{ aggregate: { groupBy: ['title.x'] } }, /aggregate\.groupBy.*'title\.x'.*to-one/s],
      [{ aggregate: { groupBy: 'published' } }, /aggregate\.groupBy.*list/s],
      [{ aggregate: { limits: { maxGroups: 0 } } }, /aggregate\.limits\.maxGroups.*1 to 10000/s],
      [{ aggregate: { limits: { maxRows: 5 } } }, /aggregate\.limits\.maxRows/s],
      [{ aggregate: true }, /aggregate.*must be an object/s],
      [{ aggregate: {}, operations: { aggregate: { handler: () => ({}) } } }, /operations\.aggregate\.handler/s],
    ])('refuses to boot on a bad aggregate block (%j), naming the path', async (config, message) => {
      const error = await bootstrapFailure({
        db,
        suite: 'e2e_aggregates_boot',
        entities: [AgAuthor, AgBook],
        controllers: [svcController('books', AgBook, config as EntityConfig)],
      });
      expect(error.message).toMatch(message);
    });
  });
});
