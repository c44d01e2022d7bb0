/** Write slots as schema classes (class-validator), Standard Schema validators and field lists; mass assignment. */
import type { EntityConfig, StandardSchemaV1 } from '@svc/core';
import { IsIn, IsInt, IsNumberString, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

class CreateBookInput {
  @IsString() @MaxLength(20) title!: string;
  @IsOptional() @IsInt() @Min(1) @Max(5000) pages?: number;
}

/** Messages of the app's own, closed with punctuation or not. */
class WordedBookInput {
  @IsString({ message: 'Give the title as text.' }) @MaxLength(20, { message: 'Keep the title short!' }) title!: string;
  @IsOptional() @IsInt({ message: 'pages must be a whole number' }) pages?: number;
}

/** The query parameters the gated list takes. */
class BookQuery {
  @IsOptional() @IsNumberString() limit?: string;
  @IsOptional() @IsIn(['title', '-title']) sort?: string;
}

/** Refuses any query that asks for a select. */
const noSelect: StandardSchemaV1 = {
  '~standard': {
    validate: (value) =>
      (value as { select?: unknown }).select === undefined
        ? { value }
        : { issues: [{ message: 'select is not allowed here', path: ['select'] }] },
  },
};

/** Asserts served books: a title must not be 'Forbidden'. */
const servedTitle: StandardSchemaV1 = {
  '~standard': {
    validate: (value) =>
      (value as { title?: unknown }).title === 'Forbidden'
        ? { issues: [{ message: 'title must not be Forbidden', path: ['title'] }] }
        : { value },
  },
};

/** Declares a field that Book does not have. */
class OddInput {
  @IsString() nope!: string;
}

class BookView {
  id = 0;
  title = '';
}

/** A hand-written Standard Schema: `title` must be a non-empty string; everything else passes through. */
const titleRequired: StandardSchemaV1 = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (value) => {
      const title = (value as { title?: unknown }).title;
      return typeof title === 'string' && title.length > 0
        ? { value }
        : { issues: [{ message: 'title must be a non-empty string', path: ['title'] }] };
    },
  },
};

/** Columns of Book that the field-list slots below leave unwritable. */
const GUARDED: Record<string, unknown> = { rating: 4.5, published: true, isbn: 'MASS-1', authorId: 1 };

describe.each(TEST_DATABASES)('schema slots on $name', (db) => {
  let t: TestApp;
  const send = (method: 'post' | 'put' | 'patch', path: string, body: object) =>
    request(t.server)[method](path).send(body);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_schema_slots',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('classy', Book, {
          schema: { input: { create: CreateBookInput, patch: CreateBookInput, update: titleRequired as never } },
          operations: {
            createOne: true,
            findOne: { schema: { output: BookView } },
            updateOne: true,
            patchOne: true,
            findMany: true,
          },
        }),
        svcController('listed', Book, {
          schema: { input: { create: ['title', 'pages'], update: { fields: ['title', 'pages'] }, patch: ['pages'] } },
        }),
        svcController('gated', Book, {
          schema: { input: { query: BookQuery } },
          operations: { findMany: true, findOne: { schema: { query: noSelect } } },
        }),
        svcController('asserted', Book, { schema: { output: { item: servedTitle, list: servedTitle } } }),
        svcController('worded', Book, { schema: { input: { create: WordedBookInput } } }),
        svcController('overridden', Book, {
          schema: { input: { create: ['title'] } },
          operations: { createOne: { schema: { input: CreateBookInput } }, findOne: true },
        }),
      ],
    });
  });
  afterAll(() => t.close());

  describe('a class-validator class', () => {
    it('validates and writes a good body', async () => {
      const created = await send('post', '/classy', { title: 'Classy', pages: 12 }).expect(201);
      expect(created.body).toMatchObject({ title: 'Classy', pages: 12 });
    });

    it('refuses a bad body with one errors[] entry per failing field', async () => {
      const response = await send('post', '/classy', { title: 7, pages: 0 }).expect(400);
      expect(response.body.code).toBe('SVC_VALIDATION_FAILED');
      expect(new Set(response.body.errors.map((error: { field: string }) => error.field))).toEqual(
        new Set(['title', 'pages']),
      );
    });

    it('refuses a key the class does not declare, and strips the primary key silently', async () => {
      const unknown = await send('post', '/classy', { title: 'X', isbn: 'I-1' }).expect(400);
      expect(unknown.body.errors[0].field).toBe('isbn');
      await send('post', '/classy', { id: 999, title: 'Keyed' }).expect(201);
    });

    it('validates only what a patch sends', async () => {
      const created = await send('post', '/classy', { title: 'Patchable' }).expect(201);
      const patched = await send('patch', `/classy/${created.body.id}`, { pages: 3 }).expect(200);
      expect(patched.body).toMatchObject({ title: 'Patchable', pages: 3 });
      await send('patch', `/classy/${created.body.id}`, { pages: -1 }).expect(400);
    });

    it('serves an operation-level output class', async () => {
      const created = await send('post', '/classy', { title: 'Viewed', pages: 2 }).expect(201);
      expect((await request(t.server).get(`/classy/${created.body.id}`).expect(200)).body).toEqual({
        id: created.body.id,
        title: 'Viewed',
      });
    });

    it("ends each errors[] detail with one closing mark: class-validator's own get a period, the app's keep theirs", async () => {
      const details = async (path: string, body: object) => {
        const response = await send('post', path, body).expect(400);
        return (response.body.errors as { detail: string }[]).map((error) => error.detail).sort();
      };
      expect(await details('/classy', { title: 7 })).toEqual([
        'title must be a string.',
        'title must be shorter than or equal to 20 characters.',
      ]);
      expect(await details('/worded', { title: 7, pages: 1.5 })).toEqual([
        'Give the title as text.',
        'Keep the title short!',
        'pages must be a whole number.',
      ]);
    });

    it('lets an operation part override the entity root slot', async () => {
      await send('post', '/overridden', { title: 'Both', pages: 3 }).expect(201);
      await send('post', '/overridden', { title: 'Bad', pages: 'x' }).expect(400);
    });
  });

  describe('a Standard Schema validator', () => {
    it('refuses a body with issues, naming the issue path', async () => {
      const created = await send('post', '/classy', { title: 'Std' }).expect(201);
      const response = await send('put', `/classy/${created.body.id}`, { title: '' }).expect(400);
      expect(response.body.errors).toEqual([
        expect.objectContaining({ field: 'title', detail: 'title must be a non-empty string' }),
      ]);
      await send('put', `/classy/${created.body.id}`, { title: 'Std 2' }).expect(200);
    });
  });

  describe('query schemas', () => {
    it('gate list parameters with a class, which also closes the parameters it does not declare', async () => {
      await request(t.server).get('/gated?limit=5&sort=-title').expect(200);
      const badSort = await request(t.server).get('/gated?sort=pages').expect(400);
      expect(badSort.body).toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [{ param: 'sort' }] });
      const undeclared = await request(t.server).get('/gated?offset=1').expect(400);
      expect(undeclared.body.errors[0].param).toBe('offset');
    });

    it('gate single-row reads with an operation part', async () => {
      const created = await send('post', '/classy', { title: 'Gated' }).expect(201);
      await request(t.server).get(`/gated/${created.body.id}`).expect(200);
      const refused = await request(t.server).get(`/gated/${created.body.id}?select=title`).expect(400);
      expect(refused.body.errors[0]).toMatchObject({ param: 'select', detail: 'select is not allowed here' });
    });
  });

  describe('a Standard Schema output slot', () => {
    it('serves items that satisfy it, and answers 500 SVC_CONFIG_INVALID naming the slot for one that does not', async () => {
      const fine = await send('post', '/classy', { title: 'Fine' }).expect(201);
      await request(t.server).get(`/asserted/${fine.body.id}`).expect(200);
      const bad = await send('post', '/classy', { title: 'Forbidden' }).expect(201);
      const response = await request(t.server).get(`/asserted/${bad.body.id}`).expect(500);
      expect(response.body.code).toBe('SVC_CONFIG_INVALID');
      const list = await request(t.server).get('/asserted').expect(500);
      expect(list.body.code).toBe('SVC_CONFIG_INVALID');
    });
  });

  describe('mass assignment through field lists', () => {
    it.each(['post', 'put', 'patch'] as const)(
      '%s refuses every unwritable column, alone and mixed, and persists none',
      async (method) => {
        const created = await send('post', '/listed', { title: 'Guarded', pages: 1 }).expect(201);
        const target = method === 'post' ? '/listed' : `/listed/${created.body.id}`;
        const writable = method === 'patch' ? { pages: 2 } : { title: 'Guarded', pages: 2 };
        for (const [column, value] of Object.entries(GUARDED)) {
          for (const body of [{ [column]: value }, { ...writable, [column]: value }]) {
            const response = await send(method, target, body).expect(400);
            expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(column);
          }
        }
        const rows = await t.dataSource.getRepository(Book).find({ withDeleted: true });
        for (const row of rows) {
          expect(row.isbn).not.toBe('MASS-1');
          expect(row.published).toBe(false);
          expect(row.rating).toBeNull();
        }
      },
    );
  });
});

describe('schema part bootstrap errors', () => {
  const cases: [string, EntityConfig, string][] = [
    [
      'an input part on deleteOne',
      { operations: { deleteOne: { schema: { input: CreateBookInput } } } },
      'operations.deleteOne.schema.input',
    ],
    [
      'a query part on createOne',
      { operations: { createOne: { schema: { query: CreateBookInput } } } },
      'operations.createOne.schema.query',
    ],
    [
      'a field list as an operation part',
      { operations: { createOne: { schema: { input: ['title'] as never } } } },
      'class or a Standard Schema',
    ],
    ['a class field that is not a column', { schema: { input: { create: OddInput } } }, "'nope'"],
  ];
  it.each(cases)('refuses %s', async (_name, config, mention) => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_schema_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('x', Book, config)],
    });
    expect(error.message).toContain(mention);
  });
});
