/**
 * `buildSvcSchema` without Nest: a schema from `createSvc`'s services, executed with graphql-js directly, as an Apollo
 * or Mercurius server would. Names, pagination strategies, bootstrap refusals and the context option.
 */
import { ConfigurationException, createSvc, type SvcContext, type SvcInstance } from '@svc/core';
import { buildSvcSchema, pluralize } from '@svc/graphql';
import { typeorm } from '@svc/typeorm';
import { graphql, printSchema, type GraphQLSchema } from 'graphql';
import { DataSource } from 'typeorm';
import { Author, BOOKSTORE_ENTITIES, Book, Note, Tag } from '../../../test/fixtures/bookstore-entities';

describe('pluralize', () => {
  it.each([
    ['book', 'books'],
    ['category', 'categories'],
    ['person', 'people'],
    ['address', 'addresses'],
    ['box', 'boxes'],
    ['day', 'days'],
    ['OrderItem', 'OrderItems'],
    ['bookCategory', 'bookCategories'],
    ['child', 'children'],
    ['series', 'series'],
    ['Person', 'People'],
  ])('%s -> %s', (singular, plural) => {
    expect(pluralize(singular)).toBe(plural);
  });
});

describe('buildSvcSchema', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: BOOKSTORE_ENTITIES,
      synchronize: true,
    }).initialize();
    const authors = await dataSource.getRepository(Author).save([{ name: 'Ann' }, { name: 'Bob' }]);
    await dataSource
      .getRepository(Book)
      .save(Array.from({ length: 7 }, (_, i) => ({ title: `B${i}`, pages: i, author: authors[i % 2]! })));
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  const svc = (): SvcInstance => createSvc({ infrastructure: typeorm({ dataSource }) });
  const run = async (schema: GraphQLSchema, source: string, contextValue: unknown = {}) =>
    JSON.parse(JSON.stringify(await graphql({ schema, source, contextValue }))) as {
      data?: Record<string, unknown> | null;
      errors?: { message: string; extensions?: { code?: string; problem?: { errors?: { param: string }[] } } }[];
    };

  describe('given an instance or a list of services', () => {
    it('derives the same schema from both', () => {
      const instance = svc();
      instance.createCrud(Author);
      instance.createCrud(Tag);
      expect(printSchema(buildSvcSchema(instance.services()))).toBe(printSchema(buildSvcSchema(instance)));
    });
  });

  describe('under the page strategy', () => {
    let schema: GraphQLSchema;

    beforeAll(() => {
      const instance = svc();
      instance.createCrud(Book, { pagination: { strategy: 'page', defaultLimit: 2 }, sort: { default: ['id'] } });
      schema = buildSvcSchema(instance);
    });

    it('takes limit and offset and reports them', async () => {
      const result = await run(schema, '{ books(limit: 3, offset: 3) { limit offset items { title } } }');
      expect(result.data).toEqual({
        books: { limit: 3, offset: 3, items: [{ title: 'B3' }, { title: 'B4' }, { title: 'B5' }] },
      });
    });

    it('refuses an offset off a page boundary with SVC_QUERY_INVALID naming offset', async () => {
      const result = await run(schema, '{ books(limit: 3, offset: 4) { limit } }');
      expect(result.errors?.[0]?.extensions?.code).toBe('SVC_QUERY_INVALID');
      expect(result.errors?.[0]?.extensions?.problem?.errors?.[0]?.param).toBe('offset');
    });
  });

  describe('under the none strategy', () => {
    it('offers no limit or offset, and serves the whole match set', async () => {
      const instance = svc();
      instance.createCrud(Book, { pagination: { strategy: 'none' } });
      const schema = buildSvcSchema(instance);
      expect(printSchema(schema)).toMatch(/books\(\s*filter: BookFilter/);
      const result = await run(schema, '{ books { total items { id } } }');
      expect((result.data?.['books'] as { items: unknown[] }).items).toHaveLength(7);
    });
  });

  describe('at bootstrap', () => {
    it.each(['cursor', 'since'] as const)('refuses a %s-paged entity, naming it and the way out', (strategy) => {
      const instance = svc();
      instance.createCrud(Tag);
      instance.createCrud(Book, {
        pagination: { strategy },
        sort: strategy === 'cursor' ? { default: ['id'] } : {},
      });
      const build = () => buildSvcSchema(instance);
      expect(build).toThrow(ConfigurationException);
      expect(build).toThrow(/Book: pagination.strategy: is '(cursor|since)'.*exclude: \['Book'\]/);
    });

    it('leaves an excluded entity out, with the relation fields that point at it (writes by reference stay)', () => {
      const instance = svc();
      instance.createCrud(Author, { pagination: { strategy: 'cursor' }, sort: { default: ['id'] } });
      instance.createCrud(Book, { include: { fields: ['author'] } });
      const sdl = printSchema(buildSvcSchema(instance, { exclude: ['Author'] }));
      expect(sdl).not.toMatch(/type Author\b|authors?\(/);
      expect(sdl).toMatch(/type Book \{/);
      expect(sdl).not.toMatch(/\n\s+author: Author\n/);
      expect(sdl).toMatch(/input BookCreateInput \{[^}]*author: AuthorReference/);
    });

    it('refuses an exclude entry that names no served entity', () => {
      const instance = svc();
      instance.createCrud(Tag);
      expect(() => buildSvcSchema(instance, { exclude: ['Tags'] })).toThrow(/'Tags', which is not a served entity/);
    });

    it('refuses a schema with no read at all', () => {
      const instance = svc();
      instance.createCrud(Tag, { operations: { createOne: true } });
      expect(() => buildSvcSchema(instance)).toThrow(/at least one query/);
    });
  });

  describe('the context', () => {
    it('hands the context value to policy as it is, or as the context option makes it', async () => {
      const seen: SvcContext[] = [];
      const instance = createSvc({
        infrastructure: typeorm({ dataSource }),
        policy: ({ context }) => {
          seen.push(context);
          return context['user'] === 'ann';
        },
      });
      instance.createCrud(Tag);
      const plain = buildSvcSchema(instance);
      expect((await run(plain, '{ tags { total } }', { user: 'ann' })).data).toEqual({ tags: { total: 0 } });
      const denied = await run(plain, '{ tags { total } }', { user: 'bob' });
      expect(denied.errors?.[0]?.extensions?.code).toBe('SVC_FORBIDDEN');
      const mapped = buildSvcSchema(instance, { context: (value) => ({ user: (value as { who: string }).who }) });
      expect((await run(mapped, '{ tags { total } }', { who: 'ann' })).data).toEqual({ tags: { total: 0 } });
      expect(seen.at(-1)).toEqual({ user: 'ann' });
    });
  });

  describe('types', () => {
    it('types keys as ID, enum columns as GraphQL enums, dates as DateTime and JSON columns as JSON', () => {
      const instance = svc();
      instance.createCrud(Note);
      instance.createCrud(Author);
      const sdl = printSchema(buildSvcSchema(instance));
      expect(sdl).toMatch(/type Note \{\n\s+id: ID!\n\s+text: String!\n\s+priority: NotePriority!\n\s+data: JSON\n/);
      expect(sdl).toMatch(/enum NotePriority \{\n\s+low\n\s+normal\n\s+high\n\}/);
      expect(sdl).toMatch(/createdAt: DateTime!/);
    });

    it('types a relation read by key as the target key alone (<Target>Key)', async () => {
      const instance = svc();
      instance.createCrud(Book, {
        include: { fields: ['author'] },
        relations: { author: { read: { strategy: 'key' } } },
        sort: { default: ['id'] },
      });
      instance.createCrud(Author);
      const schema = buildSvcSchema(instance);
      expect(printSchema(schema)).toMatch(/type AuthorKey \{\n\s+id: ID!\n\}/);
      const result = await run(schema, '{ books(limit: 2) { items { title author { id } } } }');
      expect(result).toEqual({
        data: {
          books: {
            items: [
              { title: 'B0', author: { id: '1' } },
              { title: 'B1', author: { id: '2' } },
            ],
          },
        },
      });
    });

    it('makes required create fields non-null and every patch field optional', () => {
      const instance = svc();
      instance.createCrud(Author, { schema: { input: { create: ['name', 'country'], patch: ['name'] } } });
      const sdl = printSchema(buildSvcSchema(instance));
      expect(sdl).toMatch(/input AuthorCreateInput \{\n\s+name: String!\n\s+country: String\n\}/);
      expect(sdl).toMatch(/input AuthorPatchInput \{\n\s+name: String\n\}/);
    });

    it('refuses two entities that need the same type name', () => {
      const instance = svc();
      instance.createCrud(Author);
      instance.createCrud(Tag, { filter: { fields: ['name'] } });
      // AuthorList is Author's list type; an entity named AuthorList would take the same name.
      class AuthorList {}
      const clash = [...instance.services()];
      const fake = Object.create(clash[1]!) as (typeof clash)[number];
      const described = clash[1]!.describe();
      Object.defineProperty(fake, 'describe', { value: () => ({ ...described, name: AuthorList.name }) });
      expect(() => buildSvcSchema([clash[0]!, fake])).toThrow(
        /needs the GraphQL type name 'AuthorList', which AuthorList already takes/,
      );
    });
  });
});
