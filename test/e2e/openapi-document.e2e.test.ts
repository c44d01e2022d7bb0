/**
 * The OpenAPI document an app gets from `SwaggerModule.createDocument` with `setOpenAPIVersion('3.1.0')`: every
 * generated route, with its parameters, bodies and responses derived from the description API, valid 3.1 as it is.
 */
import { ApiOperation, ApiResponse, DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { sse } from '@svc/sse';
import request from 'supertest';
import { z } from 'zod';
import { Author, Book, BOOKSTORE_ENTITIES, Edition, Note, Review, Tag } from '../fixtures/bookstore-entities';
import {
  bootstrapFailure,
  createTestApp,
  svcController,
  TEST_PLATFORM,
  type TestApp,
} from '../support/create-test-app';
import { dereferenced, lintOpenApi, validateOpenApi } from '../support/openapi-checks';
import { exerciseDocument, type OpenApiPaths } from '../support/openapi-requests';
import { TEST_DATABASES } from '../support/test-databases';

class BookUpdateInput {
  @IsString() @MaxLength(200) title!: string;
  @IsOptional() @IsInt() pages?: number;
}

class RetitleReason {
  @IsIn(['typo', 'rebrand']) kind!: string;
  @IsOptional() @IsString() @MaxLength(500) note?: string;
}

/** A custom write's class-validator body, with a nested class. */
class RetitleBody {
  @IsString() @MaxLength(200) title!: string;
  @IsOptional() @IsInt() @Min(1) edition?: number;
  @ValidateNested() @Type(() => RetitleReason) reason!: RetitleReason;
  @IsOptional() @IsDateString() effective?: string;
}

/** A class slot naming a `date` column (`due`): the class checks an ISO 8601 string, the column a calendar date. */
class NoteCreateInput {
  @IsString() @MaxLength(500) text!: string;
  @IsOptional() @IsDateString() due?: string;
}

const BookCreateInput = z.object({ title: z.string().min(1).max(200), pages: z.number().int().min(0).optional() });

const Books = svcController('books', Book, {
  filter: { fields: { title: ['eq', 'contains'], pages: ['gte', 'lte', 'between'], rating: ['isNull'] } },
  sort: { fields: ['title', 'pages'], default: ['title'] },
  search: { fields: ['title'] },
  include: { fields: ['author'] },
  relations: { tags: { write: { strategy: 'resource', maxMembers: 20 } } },
  schema: { input: { create: BookCreateInput, update: BookUpdateInput, patch: ['title', 'pages', 'rating'] } },
  operations: {
    findMany: true,
    // The app's own @nestjs/swagger decorators on a route win over what Svc writes.
    findOne: {
      meta: {
        decorators: [ApiOperation({ summary: 'Fetch a book' }), ApiResponse({ status: 404, description: 'No book.' })],
      },
    },
    createOne: true,
    updateOne: true,
    patchOne: {
      meta: { summary: 'Edit a book', description: 'Changes only the fields sent.', deprecated: true, tags: ['Edits'] },
    },
    deleteOne: true,
    restoreOne: true,
    purgeOne: true,
    publishOne: {
      meta: { routes: { method: 'PATCH', path: ':id/publish', successStatus: 200 } },
      handler: () => null,
    },
    shortMany: { kind: 'read', cardinality: 'many', handler: () => ({ entities: [], total: 0 }) },
    retitleOne: {
      schema: { input: RetitleBody },
      meta: { routes: { method: 'POST', path: ':id/retitle', successStatus: 200 } },
      handler: () => null,
    },
  },
});
/** A second controller of the same entity: its operation ids must not collide with the first's. */
const Catalog = svcController('catalog', Book, {
  relations: { tags: { write: { strategy: 'jsonPatch', maxMembers: 20 } } },
  schema: { input: { update: ['title', 'pages', 'tags'], patch: ['title', 'pages', 'tags'] } },
});
const Authors = svcController('authors', Author, { identifier: { field: 'name' } });
const Reviews = svcController('reviews', Review, {
  realtime: {},
  pagination: { strategy: 'cursor', defaultLimit: 5 },
  sort: { fields: ['rating', 'id'], default: ['-id'] },
});

/** A JSON value walked by key in assertions (what a schema holds is checked, not typed). */
interface Json {
  readonly [key: string]: Json;
}

const Notes = svcController('notes', Note, { schema: { input: { create: NoteCreateInput } } });
/** A composite primary key: the route id is `<bookId>,<code>`. */
const Editions = svcController('editions', Edition);

/** A few rows of each entity, so generated requests find ids, filter values and members. */
async function seed(t: TestApp): Promise<void> {
  const authors = await t.dataSource
    .getRepository(Author)
    .save([{ name: 'Octavia Butler', country: 'US' }, { name: 'Ursula Le Guin' }]);
  const tags = await t.dataSource.getRepository(Tag).save([{ name: 'classic' }, { name: 'space' }]);
  const books = await t.dataSource.getRepository(Book).save([
    { title: 'Kindred', pages: 264, rating: 4.5, author: authors[0], tags },
    { title: 'The Dispossessed', pages: 387, author: authors[1], tags: [tags[1]!] },
    { title: 'Parable of the Sower', pages: 345, author: authors[0] },
  ]);
  await t.dataSource.getRepository(Review).save([
    { rating: 5, body: 'Unsettling.', book: books[0] },
    { rating: 4, body: null, book: books[1] },
  ]);
  await t.dataSource.getRepository(Note).save([{ text: 'Reread', priority: 'high' as const, due: '2026-02-01' }]);
  await t.dataSource.getRepository(Edition).save([{ bookId: books[0]!.id, code: 'first' }]);
}

type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  tags?: string[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    description?: string;
    schema?: Record<string, unknown>;
  }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Json }> }>;
};

/** The database namespace of a suite: the Fastify run of this file gets its own, so the two can run at once. */
const suite = (name: string) => (TEST_PLATFORM === 'fastify' ? `${name}_fastify` : name);

function buildDocument(t: TestApp): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Svc e2e')
    .setDescription('The OpenAPI e2e app.')
    .setVersion('1.0.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'apiKey')
    .addSecurityRequirements('apiKey')
    .build();
  return SwaggerModule.createDocument(t.app, config);
}

describe.each(TEST_DATABASES)('The OpenAPI document on $name', (db) => {
  let t: TestApp;
  let document: OpenAPIObject;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: suite('e2e_openapi'),
      entities: BOOKSTORE_ENTITIES,
      controllers: [Books, Catalog, Authors, Reviews, svcController('tags', Tag), Notes, Editions],
      svc: { realtimeTransports: [sse()] },
    });
    document = buildDocument(t);
    await seed(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A route's operation, its named schemas inlined. */
  const operation = (path: string, method: string) =>
    (dereferenced(document).paths as Record<string, Record<string, Operation>>)[path]?.[method];
  const parameterNames = (op: Operation | undefined) => (op?.parameters ?? []).map((parameter) => parameter.name);
  const allOperations = () =>
    Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );

  describe('as a whole', () => {
    it('is OpenAPI 3.1.0 and valid for @apidevtools/swagger-parser', async () => {
      expect(document.openapi).toBe('3.1.0');
      await expect(validateOpenApi(document)).resolves.toBeUndefined();
    });

    it("passes Redocly's recommended rules with no error", async () => {
      const result = await lintOpenApi(document, `e2e-${db.name}`);
      const errors = result.problems.filter((problem) => problem.severity === 'error');
      expect(errors).toEqual([]);
      expect(result.exitCode).toBe(0);
    }, 60000);

    it('holds no 3.0-only keyword: nothing says nullable', () => {
      expect(JSON.stringify(document)).not.toContain('"nullable"');
    });

    it('lists no OPTIONS or HEAD operation, and no route of an operation the entity does not serve', () => {
      const methods = new Set(allOperations().map(({ method }) => method));
      expect(methods.has('options')).toBe(false);
      expect(methods.has('head')).toBe(false);
      // Authors are hard-deleted: restore and purge are not served.
      expect(document.paths['/authors/{name}/restore']).toBeUndefined();
      expect(document.paths['/authors/{name}/purge']).toBeUndefined();
    });

    it('gives every operation a readable, unique operationId and a summary', () => {
      const ids = allOperations().map(({ op }) => op.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const { op } of allOperations()) {
        expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
        expect(op.summary).toBeTruthy();
      }
      expect(operation('/books', 'get')?.operationId).toBe('findManyBooks');
      expect(operation('/books/{id}', 'get')?.operationId).toBe('findOneBook');
      expect(operation('/books/{id}', 'patch')?.operationId).toBe('patchOneBook');
      expect(operation('/catalog/{id}', 'patch')?.operationId).toBe('patchOneBookViaBookcatalog');
    });

    it('names each shape once in components.schemas, and the routes refer to it', () => {
      const schemas = document.components!.schemas as Record<string, Json>;
      expect(Object.keys(schemas)).toEqual(
        expect.arrayContaining(['Book', 'BookList', 'BookCreate', 'BookUpdate', 'BookPatch', 'BookFilter', 'Problem']),
      );
      const raw = (document.paths as Record<string, Record<string, Operation>>)['/books']!;
      expect(raw['get']!.responses['200']!.content!['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/BookList',
      });
      expect(raw['post']!.requestBody!.content['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/BookCreate',
      });
      expect(raw['get']!.responses['400']!.content!['application/problem+json']!.schema).toEqual({
        $ref: '#/components/schemas/Problem',
      });
      expect(schemas['BookList']!.properties.items).toEqual({
        type: 'array',
        items: { $ref: '#/components/schemas/Book' },
      });
      expect(schemas['BookPatch']).toMatchObject({ minProperties: 1 });
      // The second controller of books takes other update fields: its body has a name of its own.
      const catalogUpdate = (document.paths as Record<string, Record<string, Operation>>)['/catalog/{id}']!['put']!;
      expect(catalogUpdate.requestBody!.content['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/BookcatalogBookUpdate',
      });
    });

    it('takes the JSON filter as a JSON parameter (content), typed by the entity filter schema', () => {
      const raw = (document.paths as Record<string, Record<string, Operation>>)['/books']!['get']!;
      const filter = raw.parameters!.find((parameter) => parameter.name === 'filter') as unknown as {
        schema?: unknown;
        content: Record<string, { schema: unknown }>;
      };
      expect(filter.schema).toBeUndefined();
      expect(filter.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/BookFilter' } } });
      const schemas = document.components!.schemas as Record<string, Json>;
      expect(schemas['BookFilter']!.properties.title).toMatchObject({
        type: 'object',
        properties: { eq: { type: 'string' }, contains: { type: 'string' } },
      });
      expect(schemas['BookFilter']!.properties.or).toMatchObject({
        items: { $ref: '#/components/schemas/BookFilter' },
      });
    });

    it('tags each operation with its controller', () => {
      expect(operation('/books', 'get')?.tags).toEqual(['Bookbooks']);
      expect(operation('/reviews', 'get')?.tags).toEqual(['Reviewreviews']);
    });
  });

  describe('on a composite key (editions)', () => {
    it('takes one path parameter naming the key fields in order', () => {
      const findOne = operation('/editions/{id}', 'get')!;
      expect(findOne.parameters![0]).toMatchObject({ name: 'id', in: 'path', schema: { type: 'string' } });
      expect(findOne.parameters![0]!.description).toContain('bookId, code');
    });
  });

  describe('on uuid, enum, json and date columns (notes)', () => {
    it('types each by its kind, in 3.1 form', () => {
      const item = operation('/notes/{id}', 'get')!.responses['200']!.content!['application/json']!.schema;
      expect(item.properties.id).toEqual({ type: 'string', format: 'uuid' });
      expect(item.properties.priority).toEqual({ type: 'string', enum: ['low', 'normal', 'high'] });
      expect(item.properties.data).toEqual({});
      expect(item.properties.due).toEqual({ type: ['string', 'null'], format: 'date' });
    });

    it("states a class slot's @IsDateString() property on a date column as the column takes it: a date", async () => {
      const body = operation('/notes', 'post')!.requestBody!.content['application/json']!.schema as Json;
      expect(body.properties.due).toEqual({ type: 'string', format: 'date' });
      const created = await request(t.server).post('/notes').send({ text: 'Renew', due: '2026-12-01' }).expect(201);
      expect(created.body.due).toBe('2026-12-01');
      const refused = await request(t.server).post('/notes').send({ text: 'Renew', due: '2026-12-01T09:00:00Z' });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'due', code: 'invalid_value' })]);
    });
  });

  describe('every request the document allows', () => {
    it('is answered 2xx or a documented 4xx, and every 2xx body matches its documented schema', async () => {
      const result = await exerciseDocument({ server: t.server, document: document as unknown as OpenApiPaths });
      expect(result.failures).toEqual([]);
      expect(result.requests).toBeGreaterThan(300);
      // What the document allows is never refused as malformed: the 4xx left are states (a row referenced, gone).
      expect(result.refused.filter((answer) => / 4(00|13|15) /.test(answer))).toEqual([]);
      expect(result.statuses.get(201)).toBeGreaterThan(0);
      expect(result.statuses.get(204)).toBeGreaterThan(0);
    }, 120000);
  });

  describe('on a soft-delete entity (books)', () => {
    it('findMany takes each filter field with its operators, sort keys, select, include, search and offset paging', () => {
      const names = parameterNames(operation('/books', 'get'));
      expect(names).toEqual(
        expect.arrayContaining([
          'filter',
          'filter[title][eq]',
          'filter[title][contains]',
          'filter[pages][gte]',
          'filter[pages][between]',
          'filter[rating][isNull]',
          'sort',
          'select',
          'include',
          'search[query]',
          'limit',
          'offset',
          'withDeleted',
          'onlyDeleted',
        ]),
      );
      expect(names).not.toContain('filter[title][gte]');
      expect(names).not.toContain('cursor');
      const sort = operation('/books', 'get')!.parameters!.find((parameter) => parameter.name === 'sort')!;
      expect(sort).toMatchObject({ style: 'form', explode: false });
      expect((sort.schema as { items: { enum: string[] } }).items.enum).toEqual(['title', '-title', 'pages', '-pages']);
      const include = operation('/books', 'get')!.parameters!.find((parameter) => parameter.name === 'include')!;
      expect((include.schema as { items: { enum: string[] } }).items.enum).toEqual(['author']);
    });

    it('findMany answers the list envelope of items that may embed the author', () => {
      const schema = operation('/books', 'get')!.responses['200']!.content!['application/json']!.schema;
      expect(schema.required).toEqual(['items', 'total', 'limit', 'offset']);
      expect(schema.properties.total.type).toEqual(['integer', 'null']);
      expect(schema.properties.items.items.properties.deletedAt.type).toEqual(['string', 'null']);
      expect(schema.properties.items.items.properties.author.type).toEqual(['object', 'null']);
    });

    it('findOne takes the id, select, include and If-None-Match, and answers the item with its ETag, 304 and 404', () => {
      const findOne = operation('/books/{id}', 'get')!;
      expect(parameterNames(findOne)).toEqual(['id', 'select', 'include', 'If-None-Match']);
      expect(findOne.parameters![0]).toMatchObject({ in: 'path', required: true, schema: { type: 'integer' } });
      expect(findOne.responses['200']!.headers).toHaveProperty('ETag');
      expect(findOne.responses['304']).toBeDefined();
      // (Its 404 is the app's own here, below; the other controller of books shows Svc's.)
      expect(operation('/catalog/{id}', 'get')!.responses['404']!.content).toHaveProperty('application/problem+json');
    });

    it('createOne takes the JSON Schema its zod validator exposes, required fields included', () => {
      const body = operation('/books', 'post')!.requestBody!;
      expect(body.required).toBe(true);
      const schema = body.content['application/json']!.schema;
      expect(schema).toMatchObject({
        type: 'object',
        required: ['title'],
        properties: { title: { type: 'string', minLength: 1, maxLength: 200 } },
      });
      expect(operation('/books', 'post')!.responses['201']).toBeDefined();
      expect(Object.keys(operation('/books', 'post')!.responses)).toEqual(
        expect.arrayContaining(['400', '403', '409', '415', '422']),
      );
    });

    it('updateOne takes the fields of its class-validator slot, with the constraints of its decorators', () => {
      const schema = operation('/books/{id}', 'put')!.requestBody!.content['application/json']!.schema;
      expect(Object.keys(schema.properties as object)).toEqual(['title', 'pages']);
      expect(schema).toMatchObject({
        type: 'object',
        required: ['title'],
        additionalProperties: false,
        properties: { title: { type: 'string', maxLength: 200 }, pages: { type: 'integer' } },
      });
      expect(parameterNames(operation('/books/{id}', 'put'))).toContain('If-Match');
    });

    it('patchOne takes its field list with nothing required, and its meta overrides', () => {
      const patch = operation('/books/{id}', 'patch')!;
      const schema = patch.requestBody!.content['application/json']!.schema;
      expect(schema.required).toBeUndefined();
      expect((schema.properties as Record<string, { type: unknown }>)['rating']!.type).toEqual(['number', 'null']);
      expect(patch.requestBody!.content['application/json-patch+json']).toBeUndefined();
      expect(patch).toMatchObject({ summary: 'Edit a book', description: 'Changes only the fields sent.' });
      expect(patch.deprecated).toBe(true);
      expect(patch.tags).toEqual(['Bookbooks', 'Edits']);
    });

    it("keeps what the app's own decorators in meta.decorators say (summary, a response), and adds the rest", () => {
      const findOne = operation('/books/{id}', 'get')!;
      expect(findOne).toMatchObject({ operationId: 'findOneBook', summary: 'Fetch a book' });
      expect(findOne.responses['404']).toMatchObject({ description: 'No book.' });
      expect(findOne.responses['200']!.headers).toHaveProperty('ETag');
    });

    it('deleteOne, restoreOne and purgeOne answer 204, the item, 204, with 409 for the wrong state', () => {
      expect(operation('/books/{id}', 'delete')!.responses['204']).toBeDefined();
      expect(operation('/books/{id}/restore', 'patch')!.responses['200']!.content).toHaveProperty('application/json');
      expect(operation('/books/{id}/purge', 'delete')!.responses['204']).toBeDefined();
      expect(operation('/books/{id}/purge', 'delete')!.responses['409']).toBeDefined();
    });

    it('the resource relation routes take member ids and list the members', () => {
      expect(operation('/books/{id}/tags', 'get')!.operationId).toBe('listBookTags');
      const add = operation('/books/{id}/tags', 'post')!;
      expect(add.operationId).toBe('addBookTags');
      expect(add.requestBody!.content['application/json']!.schema).toMatchObject({ type: 'array', maxItems: 20 });
      expect(parameterNames(operation('/books/{id}/tags', 'delete'))).toEqual(['id', 'ids']);
      expect(parameterNames(operation('/books/{id}/tags/{memberId}', 'delete'))).toEqual(['id', 'memberId']);
      const list = operation('/books/{id}/tags', 'get')!.responses['200']!.content!['application/json']!.schema;
      expect(list.properties.items.items.title).toBe('Tag');
    });

    it('patchOne also takes application/json-patch+json where a relation uses jsonPatch', () => {
      const body = operation('/catalog/{id}', 'patch')!.requestBody!;
      expect(Object.keys(body.content)).toEqual(['application/json', 'application/json-patch+json']);
      expect(body.content['application/json-patch+json']!.schema).toMatchObject({ type: 'array' });
    });
  });

  describe('on an identifier entity (authors by name)', () => {
    it('names the path parameter after identifier.field and types it by its column', () => {
      const findOne = operation('/authors/{name}', 'get')!;
      expect(findOne.parameters![0]).toMatchObject({ name: 'name', in: 'path', required: true });
      expect(findOne.parameters![0]!.schema).toMatchObject({ type: 'string', maxLength: 100 });
      expect(operation('/authors/{id}', 'get')).toBeUndefined();
    });
  });

  describe('on a cursor entity (reviews)', () => {
    it('takes exactly limit and cursor for paging, and its envelope carries meta.nextCursor', () => {
      const names = parameterNames(operation('/reviews', 'get'));
      expect(names).toEqual(expect.arrayContaining(['limit', 'cursor', 'sort']));
      expect(names).not.toContain('offset');
      expect(names).not.toContain('page[number]');
      const schema = operation('/reviews', 'get')!.responses['200']!.content!['application/json']!.schema;
      expect(schema.required).toContain('meta');
      expect(schema.properties.meta.properties.nextCursor.type).toEqual(['string', 'null']);
    });
  });

  describe('on the realtime subscription route', () => {
    it('documents GET /reviews/events as a text/event-stream taking id, the filter and a resume position', () => {
      const events = operation('/reviews/events', 'get')!;
      expect(events.operationId).toBe('streamReviewEvents');
      expect(parameterNames(events)).toEqual(
        expect.arrayContaining(['id', 'filter[rating][eq]', 'lastEventId', 'Last-Event-ID']),
      );
      expect(Object.keys(events.responses['200']!.content!)).toEqual(['text/event-stream']);
    });

    it('leaves out the events path of an entity whose realtime is off (there it is the findOne of `events`)', () => {
      expect(document.paths['/books/events']).toBeUndefined();
      expect(operation('/books/{id}', 'get')).toBeDefined();
    });
  });

  describe('on custom operations', () => {
    it('a custom write on its own route takes the id and an optional body, and answers the item or 204', () => {
      const publish = operation('/books/{id}/publish', 'patch')!;
      expect(publish.operationId).toBe('publishOneBook');
      expect(parameterNames(publish)).toEqual(['id']);
      expect(publish.requestBody!.required).toBe(false);
      expect(Object.keys(publish.responses)).toEqual(expect.arrayContaining(['200', '204', '404', '409']));
      expect(publish.responses['200']!.content!['application/json']!.schema.title).toBe('Book');
    });

    it("a custom write's class-validator body is described from its decorators, nested classes inlined", () => {
      const retitle = operation('/books/{id}/retitle', 'post')!;
      expect(retitle.requestBody!.required).toBe(true);
      expect(retitle.requestBody!.content['application/json']!.schema).toEqual({
        type: 'object',
        additionalProperties: false,
        required: ['title', 'reason'],
        properties: {
          title: { type: 'string', maxLength: 200 },
          edition: { type: 'integer', minimum: 1 },
          reason: {
            type: 'object',
            additionalProperties: false,
            required: ['kind'],
            properties: {
              kind: { type: 'string', enum: ['typo', 'rebrand'] },
              note: { type: 'string', maxLength: 500 },
            },
          },
          // What @IsDateString() checks: an ISO 8601 date or date-time.
          effective: {
            oneOf: [
              { type: 'string', format: 'date' },
              { type: 'string', format: 'date-time' },
            ],
          },
        },
      });
    });

    it('a custom read of cardinality many takes the list grammar and answers the envelope', () => {
      const short = operation('/books/shortMany', 'post')!;
      expect(short.operationId).toBe('shortManyBooks');
      expect(parameterNames(short)).toEqual(expect.arrayContaining(['filter[title][eq]', 'sort', 'limit']));
      expect(short.responses['201']!.content!['application/json']!.schema.properties.items).toBeDefined();
    });
  });
});

describe.each(TEST_DATABASES)('What the OpenAPI document shows of closed fields and bad meta on $name', (db) => {
  it('never names a field outside select.fields in a response, a filter, a sort or a select', async () => {
    const t = await createTestApp({
      db,
      suite: suite('e2e_openapi_hidden'),
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          select: { fields: { exclude: ['isbn'] } },
          schema: { input: { create: ['title'], update: ['title'], patch: ['title'] } },
        }),
      ],
    });
    try {
      const document = buildDocument(t);
      const text = JSON.stringify(document);
      expect(text).not.toContain('isbn');
      expect(text).toContain('filter[title][eq]');
    } finally {
      await t.close();
    }
  });

  it.each([
    ['summary', 3, 'must be a string.'],
    ['deprecated', 'yes', 'must be true or false.'],
    ['tags', 'Shelf', 'must be an array of tag names'],
  ])('refuses meta.%s = %p at boot, naming it', async (key, value, message) => {
    const error = await bootstrapFailure({
      db,
      suite: suite('e2e_openapi_meta'),
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('books', Book, { operations: { findMany: { meta: { [key]: value } as never } } })],
    });
    expect(error.message).toContain(`operations.findMany.meta.${key}`);
    expect(error.message).toContain(message);
  });
});
