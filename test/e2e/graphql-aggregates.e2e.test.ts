/**
 * `<entities>Aggregate` on GraphQL, on two tenants of one database: the field and its types exist only where the
 * entity serves `aggregate`; a call answers what `GET /<path>/aggregate` answers for the same parameters, inside the
 * caller's scope, on own columns and a to-one path; the functions computed are the ones selected (`@skip`,
 * `@include` and fragments applied); a bad field is a validation error and a refused value carries its problem code;
 * its page is sized for the cost rule as a list's is.
 */
import type { EntityConfig, PolicyFunction } from '@svc/core';
import { buildSvcSchema, operationCost } from '@svc/graphql';
import { SvcRegistry } from '@svc/nestjs';
import { TypeOrmRepositoryAdapter } from '@svc/typeorm';
import { GraphQLEnumType, GraphQLObjectType, parse, type GraphQLSchema, printType } from 'graphql';
import request from 'supertest';
import { Column, DeleteDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { callerOf } from './support/mcp-fixtures';
import { dataOf, errorOf, postGraphql, type GraphqlAnswer } from './support/graphql-http';

@Entity('ga_author')
class GaAuthor {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 60 }) name!: string;
  @Column({ type: 'varchar', length: 20, nullable: true }) country!: string | null;
}

@Entity('ga_book')
class GaBook {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) title!: string;
  @Column({ type: 'int', default: 0 }) pages!: number;
  @Column({ type: 'decimal', precision: 10, scale: 2, nullable: true }) price!: string | null;
  @Column({ type: 'boolean', default: false }) published!: boolean;
  @Column({ type: Date, nullable: true }) publishedAt!: Date | null;
  @Column({ type: 'bigint', default: 0 }) views!: string | number;
  @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => GaAuthor, { nullable: true })
  @JoinColumn({ name: 'authorId' })
  author!: GaAuthor | null;
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}

/** A column whose name is what GraphQL would call the path `author.country`. */
@Entity('ga_clash')
class GaClash {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20, nullable: true }) author_country!: string | null;
  @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => GaAuthor, { nullable: true })
  @JoinColumn({ name: 'authorId' })
  author!: GaAuthor | null;
}

const tenantOf = (context: Parameters<PolicyFunction>[0]['context']) => callerOf(context)?.tenant ?? 'nobody';

const scoped = (extra: EntityConfig): EntityConfig => ({
  ...extra,
  filter: { ...extra.filter, apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
  set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
});

const BOOKS = scoped({
  select: { fields: ['id', 'tenant', 'title', 'pages', 'price', 'published', 'publishedAt', 'views', 'authorId'] },
  filter: { fields: ['title', 'pages', 'published', 'author.country'] },
  search: { fields: ['title'] },
  aggregate: {
    fields: {
      pages: ['sum', 'avg', 'min', 'max'],
      price: ['sum', 'max'],
      views: ['sum'],
      publishedAt: ['min', 'max'],
      authorId: ['countDistinct'],
    },
    groupBy: ['published', 'authorId', 'author.country'],
    limits: { maxGroups: 50 },
  },
});

type Item = Record<string, unknown>;
interface Page {
  readonly items: Item[];
  readonly limit: number;
  readonly offset: number;
  readonly total: number | null;
}

describe.each(TEST_DATABASES)('GraphQL aggregates on $name', (db) => {
  let t: McpApp;
  let http: ReturnType<McpApp['app']['getHttpServer']>;
  let schema: GraphQLSchema;

  beforeAll(async () => {
    t = await startMcpApp({
      db,
      suite: 'e2e_graphql_aggregates',
      entities: [GaAuthor, GaBook],
      controllers: [svcController('books', GaBook, BOOKS), svcController('authors', GaAuthor, scoped({}))],
      svc: { graphql: true },
    });
    http = t.app.getHttpServer();
    schema = buildSvcSchema(t.app.get(SvcRegistry).instance);
    const authors = t.dataSource.getRepository(GaAuthor);
    const ann = await authors.save({ tenant: 'a', name: 'Ann', country: 'UK' });
    const bo = await authors.save({ tenant: 'a', name: 'Bo', country: null });
    const bob = await authors.save({ tenant: 'b', name: 'Bob', country: 'FR' });
    const row = (values: Partial<GaBook>) => ({ tenant: 'a', pages: 0, published: false, views: 0, ...values });
    await t.dataSource.getRepository(GaBook).save([
      row({
        title: 'a1',
        pages: 100,
        price: '0.10',
        published: true,
        publishedAt: new Date('2020-01-01T00:00:00Z'),
        views: '9007199254740991',
        authorId: ann.id,
      }),
      row({
        title: 'a2',
        pages: 200,
        price: '0.20',
        published: true,
        publishedAt: new Date('2021-06-01T12:30:00Z'),
        views: 10,
        authorId: bo.id,
      }),
      row({ title: 'a3', pages: 50, price: null }),
      // The other tenant's author: out of this caller's scope, it lends no country.
      row({ title: 'a4', pages: 70, price: '1.05', authorId: bob.id }),
      row({ title: 'a5', pages: 999, price: '5.00', published: true, authorId: ann.id, deletedAt: new Date() }),
      row({ tenant: 'b', title: 'b1', pages: 1000, price: '9.99', published: true, authorId: bob.id }),
      row({ tenant: 'b', title: 'b2', pages: 3000, price: null }),
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const gql = <T = Record<string, Page>>(tenant: string, query: string, variables?: Record<string, unknown>) =>
    postGraphql<T>(http, { query, variables, headers: { 'x-user': `user:${tenant}:editor` } });
  const aggregated = async (tenant: string, query: string, variables?: Record<string, unknown>) =>
    dataOf(await gql(tenant, query, variables)).gaBooksAggregate!;
  const rest = async (tenant: string, query: string): Promise<Page> => {
    const res = await request(http).get(`/books/aggregate?${query}`).set('x-user', `user:${tenant}:editor`);
    expect(res.status).toBe(200);
    return res.body as Page;
  };
  /** A GraphQL group names a path with an underscore; REST's answer with its dot. */
  const restGroup = (group: Item) =>
    Object.fromEntries(Object.entries(group).map(([name, value]) => [name.replace('author_', 'author.'), value]));

  describe('the schema', () => {
    const fieldTypes = (name: string) => {
      const type = schema.getType(name);
      if (!(type instanceof GraphQLObjectType)) throw new Error(`${name} is not an object type of the schema.`);
      return Object.fromEntries(Object.values(type.getFields()).map((field) => [field.name, String(field.type)]));
    };

    it('serves <entities>Aggregate where the entity serves aggregate, and nowhere else', () => {
      const query = schema.getQueryType()!.getFields();
      expect(Object.keys(query)).toEqual(
        expect.arrayContaining(['gaBooks', 'gaBooksAggregate', 'gaAuthors', 'gaAuthor']),
      );
      expect(query['gaAuthorsAggregate']).toBeUndefined();
      expect(Object.keys(schema.getTypeMap()).filter((name) => name.startsWith('GaAuthorAggregate'))).toEqual([]);
      expect(query['gaBooksAggregate']!.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([
        'filter: GaBookFilter',
        'search: String',
        'groupBy: [GaBookAggregateGroupField!]',
        'sort: [String!]',
        'limit: Int',
        'offset: Int',
        'withDeleted: Boolean',
        'onlyDeleted: Boolean',
      ]);
      expect(String(query['gaBooksAggregate']!.type)).toBe('GaBookAggregateList!');
    });

    it('types the groups, the counts and each function by the columns they read', () => {
      const groupFields = schema.getType('GaBookAggregateGroupField') as GraphQLEnumType;
      expect(groupFields.getValues().map(({ name, value }) => [name, value])).toEqual([
        ['published', 'published'],
        ['authorId', 'authorId'],
        ['author_country', 'author.country'],
      ]);
      expect(fieldTypes('GaBookAggregateList')).toEqual({
        items: '[GaBookAggregate!]!',
        total: 'Int',
        limit: 'Int!',
        offset: 'Int!',
      });
      expect(fieldTypes('GaBookAggregate')).toEqual({
        group: 'GaBookAggregateGroup!',
        count: 'Int!',
        countDistinct: 'GaBookAggregateCountDistinct',
        sum: 'GaBookAggregateSum',
        avg: 'GaBookAggregateAvg',
        min: 'GaBookAggregateMin',
        max: 'GaBookAggregateMax',
      });
      expect(fieldTypes('GaBookAggregateGroup')).toEqual({
        published: 'Boolean',
        authorId: 'Int',
        author_country: 'String',
      });
      expect(fieldTypes('GaBookAggregateCountDistinct')).toEqual({ authorId: 'Int' });
      // Exact text for decimals and bigints, as GaBook serves those columns; an integer sum outgrows Int.
      expect(fieldTypes('GaBookAggregateSum')).toEqual({ pages: 'Float', price: 'String', views: 'String' });
      expect(fieldTypes('GaBookAggregateAvg')).toEqual({ pages: 'Float' });
      expect(fieldTypes('GaBookAggregateMin')).toEqual({ pages: 'Int', publishedAt: 'DateTime' });
      expect(fieldTypes('GaBookAggregateMax')).toEqual({ pages: 'Int', price: 'String', publishedAt: 'DateTime' });
      expect(printType(schema.getType('GaBookAggregateSum')!)).toContain('views: String');
    });

    it('refuses to boot where two group fields would take one GraphQL name', async () => {
      const error = await bootstrapFailure({
        db,
        suite: 'e2e_graphql_aggregates_boot',
        entities: [GaAuthor, GaClash],
        controllers: [
          svcController('clashes', GaClash, { aggregate: { groupBy: ['author_country', 'author.country'] } }),
        ],
        svc: { graphql: true },
      });
      expect(error.message).toMatch(/GaClash.*aggregate\.groupBy.*'author_country' and 'author\.country'/);
    });
  });

  describe('answers', () => {
    it('answers a grouped call with every function as GET /aggregate does', async () => {
      const graphql = await aggregated(
        'a',
        `{ gaBooksAggregate(groupBy: [published], sort: ["-count", "-published"]) {
            items {
              group { published } count countDistinct { authorId } sum { pages price views } avg { pages }
              min { pages publishedAt } max { price publishedAt }
            }
            limit offset total } }`,
      );
      const answer = await rest(
        'a',
        'groupBy=published&sort=-count,-published&countDistinct=authorId&sum=pages,price,views&avg=pages' +
          '&min=pages,publishedAt&max=price,publishedAt',
      );
      // A decimal's maximum is served as GaBook serves the column: as a String (SQLite's driver reads a number).
      const asGraphql = (item: Item) => {
        const max = item['max'] as Item;
        return { ...item, max: { ...max, price: max['price'] === null ? null : String(max['price']) } };
      };
      expect(graphql).toEqual({ ...answer, items: answer.items.map(asGraphql) });
      expect(graphql.items[0]).toMatchObject({
        group: { published: true },
        count: 2,
        countDistinct: { authorId: 2 },
        sum: { pages: 300, price: '0.30', views: '9007199254741001' },
        avg: { pages: 150 },
        min: { pages: 100, publishedAt: '2020-01-01T00:00:00.000Z' },
      });
      expect(graphql).toMatchObject({ limit: 50, offset: 0, total: 2 });
    });

    it('takes the filter, search, sort by a function and paging as REST does', async () => {
      const graphql = await aggregated(
        'a',
        `{ gaBooksAggregate(groupBy: [author_country], filter: { pages: { gte: 60 } }, search: "a",
            sort: ["-sum.pages"], limit: 1, offset: 1) { items { group { author_country } count sum { pages } } limit offset total } }`,
      );
      const filter = encodeURIComponent(JSON.stringify({ pages: { gte: 60 } }));
      const answer = await rest(
        'a',
        `groupBy=author.country&filter=${filter}&search[query]=a&sort=-sum.pages&sum=pages&limit=1&offset=1`,
      );
      expect({
        ...graphql,
        items: graphql.items.map((item) => ({ ...item, group: restGroup(item['group'] as Item) })),
      }).toEqual(answer);
      expect(graphql).toEqual({
        items: [{ group: { author_country: 'UK' }, count: 1, sum: { pages: 100 } }],
        limit: 1,
        offset: 1,
        total: 2,
      });
    });

    it("never counts the other tenant's rows", async () => {
      const query = '{ gaBooksAggregate { items { count sum { pages } } total } }';
      expect(await aggregated('a', query)).toEqual({ items: [{ count: 4, sum: { pages: 420 } }], total: 1 });
      expect(await aggregated('b', query)).toEqual({ items: [{ count: 2, sum: { pages: 4000 } }], total: 1 });
      const byCountry = await aggregated(
        'b',
        '{ gaBooksAggregate(groupBy: [author_country], sort: ["author_country"]) { items { group { author_country } count } } }',
      );
      expect(byCountry.items).toEqual([
        { group: { author_country: 'FR' }, count: 1 },
        { group: { author_country: null }, count: 1 },
      ]);
      const nobody = await aggregated('z', '{ gaBooksAggregate(groupBy: [published]) { items { count } total } }');
      expect(nobody).toEqual({ items: [], total: 0 });
    });

    it('groups by a to-one path, named with an underscore, ordered by either spelling', async () => {
      const by = (sort: string) =>
        aggregated(
          'a',
          `{ gaBooksAggregate(groupBy: [author_country], sort: ["${sort}"]) {
              items { group { author_country published } count sum { pages } } } }`,
        );
      const ascending = await by('author_country');
      // The missing author, the null country and the other tenant's author group under null.
      expect(ascending.items).toEqual([
        { group: { author_country: 'UK', published: null }, count: 1, sum: { pages: 100 } },
        { group: { author_country: null, published: null }, count: 3, sum: { pages: 320 } },
      ]);
      expect(await by('author.country')).toEqual(ascending);
      expect((await by('-author_country')).items.map((item) => item['count'])).toEqual([3, 1]);
    });
  });

  describe('refusals', () => {
    it('refuses a field that is not grouped or aggregated as a GraphQL validation error, before anything runs', async () => {
      const group = await gql('a', '{ gaBooksAggregate(groupBy: [title]) { items { count } } }');
      expect(group.data).toBeUndefined();
      expect(group.errors?.[0]?.message).toMatch(/"title".*GaBookAggregateGroupField/);
      const sum = await gql('a', '{ gaBooksAggregate { items { sum { title } } } }');
      expect(sum.data).toBeUndefined();
      expect(sum.errors?.[0]?.message).toMatch(/field "title" on type "GaBookAggregateSum"/);
      // A function a field does not take is no field of that function's type.
      const avg = await gql('a', '{ gaBooksAggregate { items { avg { views } } } }');
      expect(avg.errors?.[0]?.message).toMatch(/field "views" on type "GaBookAggregateAvg"/);
    });

    it.each([
      ['limit: 0', 'limit', 'invalid_value'],
      ['offset: -1', 'offset', 'invalid_value'],
      ['sort: ["-title"]', 'sort', 'field_not_sortable'],
      ['sort: ["published"]', 'sort', 'field_not_sortable'],
    ])('refuses %s with the problem code, naming %s', async (argument, param, code) => {
      const answer: GraphqlAnswer = await gql('a', `{ gaBooksAggregate(${argument}) { items { count } } }`);
      expect(answer.data).toBeNull();
      const error = errorOf(answer, 'SVC_QUERY_INVALID');
      expect(error.path).toEqual(['gaBooksAggregate']);
      expect(error.extensions?.problem?.errors?.[0]).toMatchObject({ param, code });
    });

    it('holds a larger limit to maxGroups, as REST does', async () => {
      const page = await aggregated('a', '{ gaBooksAggregate(groupBy: [authorId], limit: 500) { limit total } }');
      expect(page).toEqual({ limit: 50, total: 4 });
    });
  });

  describe('the functions a call computes', () => {
    let calls: jest.SpyInstance;

    beforeEach(() => {
      calls = jest.spyOn(TypeOrmRepositoryAdapter.prototype, 'aggregate');
    });

    afterEach(() => {
      calls.mockRestore();
    });

    const measures = () =>
      (calls.mock.calls.at(-1)![0] as { measures: { fn: string; field: string }[] }).measures.map(
        ({ fn, field }) => `${fn}.${field}`,
      );

    it('are the fields selected under each function, @skip and @include applied', async () => {
      const page = await aggregated(
        'a',
        `query($off: Boolean!, $on: Boolean!) { gaBooksAggregate {
            items { count sum { pages price @skip(if: $off) views @include(if: $on) } max @skip(if: $off) { pages } } } }`,
        { off: true, on: true },
      );
      expect(page.items).toEqual([{ count: 4, sum: { pages: 420, views: '9007199254741001' } }]);
      expect(measures()).toEqual(['sum.pages', 'sum.views']);
      await aggregated(
        'a',
        `query($off: Boolean!) { gaBooksAggregate { items { sum { pages @include(if: $off) price } } } }`,
        { off: false },
      );
      expect(measures()).toEqual(['sum.price']);
    });

    it('reads fragments and aliases, and computes nothing for an unselected function', async () => {
      const page = await aggregated(
        'a',
        `{ gaBooksAggregate { items { count ...Sums least: min { pages } most: max { __typename } } } }
          fragment Sums on GaBookAggregate { sum { ... on GaBookAggregateSum { price } } total: sum { pages } }`,
      );
      expect(page.items).toEqual([
        { count: 4, sum: { price: '1.35' }, total: { pages: 420 }, least: { pages: 50 }, most: null },
      ]);
      expect(measures().sort()).toEqual(['min.pages', 'sum.pages', 'sum.price']);
      await aggregated('a', '{ gaBooksAggregate(sort: ["-avg.pages"]) { items { count } } }');
      // A function the call orders by is computed though not selected.
      expect(measures()).toEqual(['avg.pages']);
    });

    it('answers an integer sum past 2^53 (the adapter answers its text) as a field error, never rounded', async () => {
      calls.mockResolvedValueOnce({
        groups: [{ key: {}, count: 1, values: { 'sum.pages': '9007199254740993' } }],
        total: 1,
      });
      const answer = await gql('a', '{ gaBooksAggregate { items { count sum { pages } } } }');
      expect(answer.data).toEqual({ gaBooksAggregate: { items: [{ count: 1, sum: { pages: null } }] } });
      expect(answer.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('9007199254740993'),
          path: ['gaBooksAggregate', 'items', 0, 'sum', 'pages'],
        }),
      ]);
    });
  });

  describe('the operation cost', () => {
    const cost = (query: string) => operationCost(schema, parse(query));

    it('counts a page of groups as limit groups, else maxGroups, as a list page holds its limit', () => {
      // 1 (the field) + 1 (items) + groups × (count + sum + its one field).
      expect(cost('{ gaBooksAggregate { items { count sum { pages } } } }')).toBe(2 + 50 * 3);
      expect(cost('{ gaBooksAggregate(limit: 5) { items { count sum { pages } } } }')).toBe(2 + 5 * 3);
      expect(cost('{ gaBooksAggregate(limit: 5000) { items { count sum { pages } } } }')).toBe(2 + 50 * 3);
      expect(cost('query($n: Int) { gaBooksAggregate(limit: $n) { items { count } } }')).toBe(2 + 50);
    });
  });
});
