/**
 * Two versions of one entity's API served side by side with Nest's own versioning: two `@Svc(Book)` controllers on the
 * same path, each with its own config, selected by the URI (`/v1/books`, `/v2/books`) or by a header. Both read and
 * write the one table; each keeps its own operations, projection, paging and errors, and the OpenAPI document lists
 * each version apart, with the old version's deprecated operation marked.
 */
import {
  Controller,
  ForbiddenException,
  Header,
  Injectable,
  UseGuards,
  VersioningType,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type VersioningOptions,
} from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Svc, SvcModule, type SvcModuleOptions } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import request from 'supertest';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { initPlatformApp, TEST_PLATFORM } from '../support/create-test-app';
import { testDataSourceOptions, TEST_DATABASES, type TestDatabase } from '../support/test-databases';
import { expectItem, expectList, expectProblem, type Item } from './support/e2e-http';
import { postGraphql } from './support/graphql-http';

/** Lets a request through only with `x-role: editor`. */
@Injectable()
class EditorGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const role = context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-role'];
    if (role !== 'editor') throw new ForbiddenException('editors only');
    return true;
  }
}

/**
 * Version 1: three fields read and two written, offset paging, no delete, an editors-only create and a deprecated
 * patch.
 */
@Svc(Book, {
  select: { fields: ['id', 'title', 'pages'] },
  schema: { input: { create: ['title', 'pages'], patch: ['title', 'pages'] } },
  filter: { fields: ['title', 'pages'] },
  operations: {
    findMany: true,
    findOne: true,
    createOne: { meta: { decorators: [UseGuards(EditorGuard)] } },
    patchOne: {
      meta: {
        deprecated: true,
        description: 'Use PATCH /v2/books/{id}.',
        // RFC 9745 and RFC 8594: the route says it is deprecated, and when it goes.
        decorators: [Header('Deprecation', '@1767225600'), Header('Sunset', 'Thu, 31 Dec 2026 23:59:59 GMT')],
      },
    },
  },
})
@Controller({ path: 'books', version: '1' })
class BooksV1Controller {}

/** Version 2: every column, page-number paging, and every standard operation. */
@Svc(Book, { pagination: { strategy: 'page' } })
@Controller({ path: 'books', version: '2' })
class BooksV2Controller {}

/** The database namespace of a suite: the Fastify run of this file gets its own, so the two can run at once. */
const suite = (name: string) => (TEST_PLATFORM === 'fastify' ? `${name}_fastify` : name);

interface VersionedApp {
  readonly app: INestApplication;
  readonly server: ReturnType<INestApplication['getHttpServer']>;
  readonly dataSource: DataSource;
}

/** The app with Nest's versioning switched on before it initialises, as a `main.ts` does. */
async function versionedApp(options: {
  readonly db: TestDatabase;
  readonly suite: string;
  readonly versioning: VersioningOptions;
  readonly svc?: Partial<SvcModuleOptions>;
}): Promise<VersionedApp> {
  const dataSource = (await testDataSourceOptions(options.db, options.suite, BOOKSTORE_ENTITIES)) as DataSourceOptions;
  const moduleRef = await Test.createTestingModule({
    imports: [TypeOrmModule.forRoot(dataSource), SvcModule.forRoot({ infrastructure: typeorm(), ...options.svc })],
    controllers: [BooksV1Controller, BooksV2Controller],
    providers: [EditorGuard],
  }).compile();
  const app = await initPlatformApp(moduleRef, { logger: false }, (created) =>
    created.enableVersioning(options.versioning),
  );
  return { app, server: app.getHttpServer(), dataSource: app.get(DataSource) };
}

describe.each(TEST_DATABASES)('API versioning with two controllers of one entity on $name', (db) => {
  describe("Nest's URI versioning (/v1/books, /v2/books)", () => {
    let t: VersionedApp;
    let document: OpenAPIObject;
    const server = () => request(t.server);

    beforeAll(async () => {
      t = await versionedApp({
        db,
        suite: suite('e2e_api_versioning_uri'),
        versioning: { type: VersioningType.URI },
        // The default problemDetails: Svc tells its routes under /v1 and /v2 by their paths without the version.
        svc: { graphql: true },
      });
      await t.dataSource.getRepository(Book).save([
        { title: 'Kindred', pages: 264, rating: 4.5 },
        { title: 'Dune', pages: 412, rating: 4.2, published: true },
      ]);
      document = SwaggerModule.createDocument(
        t.app,
        new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle('Versions').build(),
      );
    });

    afterAll(async () => {
      await t?.app.close();
    });

    it('serves each version with its own projection and paging, over the one table', async () => {
      const v1 = expectList(await server().get('/v1/books?sort=title'));
      expect(v1.items).toEqual([
        { id: expect.any(Number), title: 'Dune', pages: 412 },
        { id: expect.any(Number), title: 'Kindred', pages: 264 },
      ]);
      expect(v1).toMatchObject({ limit: 20, offset: 0, total: 2 });
      const v2 = expectList(await server().get('/v2/books?sort=title&page[number]=1&page[size]=1'));
      expect(v2).toMatchObject({ limit: 1, offset: 0, total: 2 });
      expect(v2.items[0]).toMatchObject({ title: 'Dune', pages: 412, rating: 4.2, published: true });
    });

    it('reads through one version what the other wrote, and gives each its own Location', async () => {
      const created = await server().post('/v1/books').set('x-role', 'editor').send({ title: 'Ubik', pages: 202 });
      const item = expectItem(created, 201);
      expect(item).toEqual({ id: expect.any(Number), title: 'Ubik', pages: 202 });
      expect(created.headers['location']).toBe(`/v1/books/${String(item['id'])}`);
      const read = expectItem(await server().get(`/v2/books/${String(item['id'])}`));
      expect(read).toMatchObject({ title: 'Ubik', pages: 202, rating: null, published: false });
      expect(
        expectItem(
          await server()
            .patch(`/v2/books/${String(item['id'])}`)
            .send({ rating: 3 }),
        )['rating'],
      ).toBe(3);
      expect(expectItem(await server().get(`/v1/books/${String(item['id'])}`))).not.toHaveProperty('rating');
    });

    it("keeps to each version's operations: v1 has no delete route, v2 deletes", async () => {
      const { id } = await t.dataSource.getRepository(Book).save({ title: 'Doomed' });
      expectProblem(await server().delete(`/v1/books/${id}`), 404, 'SVC_ROUTE_NOT_FOUND');
      expect((await server().delete(`/v2/books/${id}`)).status).toBe(204);
      expectProblem(await server().get(`/v1/books/${id}`), 404, 'SVC_NOT_FOUND');
    });

    it("answers each version's errors as problem details: its query rules, its guards, its bodies", async () => {
      const paged = expectProblem(await server().get('/v1/books?page[size]=5'), 400, 'SVC_QUERY_UNSUPPORTED_PARAM');
      expect(paged.errors?.[0]?.param).toBe('page[size]');
      expectProblem(await server().get('/v2/books?limit=5'), 400, 'SVC_QUERY_UNSUPPORTED_PARAM');
      expectProblem(await server().get('/v1/books?filter[rating][isNull]'), 400, 'SVC_QUERY_INVALID');
      expectProblem(await server().post('/v1/books').send({ title: 'No role' }), 403, 'SVC_FORBIDDEN');
      const body = await server().post('/v1/books').set('x-role', 'editor').send({ title: 'x', rating: 5 });
      expectProblem(body, 400, 'SVC_VALIDATION_FAILED');
      const malformed = await server().post('/v2/books').set('content-type', 'application/json').send('{"title":');
      expectProblem(malformed, 400, 'SVC_MALFORMED_REQUEST');
    });

    it('answers a path without a version with 404', async () => {
      expectProblem(await server().get('/books'), 404, 'SVC_ROUTE_NOT_FOUND');
    });

    it('lists each version apart in OpenAPI, with ids and differing schemas named after the controller', () => {
      const paths = document.paths as Record<string, Record<string, { operationId: string; deprecated?: boolean }>>;
      expect(Object.keys(paths['/v1/books/{id}']!).sort()).toEqual(['get', 'patch']);
      expect(Object.keys(paths['/v2/books/{id}']!).sort()).toEqual(['delete', 'get', 'patch', 'put']);
      expect(paths['/v1/books']!['get']!.operationId).toBe('findManyBooks');
      expect(paths['/v2/books']!['get']!.operationId).toBe('findManyBooksViaBooksV2');
      const listOf = (path: string) =>
        (paths[path]!['get'] as unknown as { responses: Record<string, { content: Record<string, unknown> }> })
          .responses['200']!.content['application/json'];
      expect(listOf('/v1/books')).toEqual({ schema: { $ref: '#/components/schemas/BookList' } });
      expect(listOf('/v2/books')).toEqual({ schema: { $ref: '#/components/schemas/BooksV2BookList' } });
      expect(Object.keys(document.components!.schemas!)).toEqual(expect.arrayContaining(['Book', 'BooksV2Book']));
    });

    it('sends the deprecated route its Deprecation and Sunset headers', async () => {
      const { id } = await t.dataSource.getRepository(Book).save({ title: 'Old route', pages: 1 });
      const patched = await server().patch(`/v1/books/${id}`).send({ pages: 2 });
      expect(expectItem(patched)).toEqual({ id, title: 'Old route', pages: 2 });
      expect(patched.headers).toMatchObject({ deprecation: '@1767225600', sunset: 'Thu, 31 Dec 2026 23:59:59 GMT' });
      expect((await server().get(`/v1/books/${id}`)).headers['deprecation']).toBeUndefined();
      expect((await server().patch(`/v2/books/${id}`).send({ pages: 3 })).headers['deprecation']).toBeUndefined();
    });

    it('marks the deprecated v1 operation in OpenAPI, and only it', () => {
      const paths = document.paths as Record<string, Record<string, { deprecated?: boolean; description?: string }>>;
      expect(paths['/v1/books/{id}']!['patch']).toMatchObject({
        deprecated: true,
        description: 'Use PATCH /v2/books/{id}.',
      });
      expect(paths['/v2/books/{id}']!['patch']!.deprecated).toBeUndefined();
      expect(paths['/v1/books']!['get']!.deprecated).toBeUndefined();
    });

    it('serves GraphQL from the first controller of the entity, whatever the URI versions', async () => {
      const answer = await postGraphql<{ books: { items: Item[] } }>(t.server, {
        query: '{ books(sort: ["title"]) { items { title pages } } }',
      });
      expect(answer.data?.books.items[0]).toEqual({ title: 'Dune', pages: 412 });
      const v2Only = await postGraphql(t.server, { query: '{ books { items { rating } } }' });
      expect(v2Only.errors?.[0]?.message).toBe('Cannot query field "rating" on type "Book".');
    });
  });

  describe("Nest's header versioning (X-API-Version on /books)", () => {
    let t: VersionedApp;
    const server = () => request(t.server);

    beforeAll(async () => {
      t = await versionedApp({
        db,
        suite: suite('e2e_api_versioning_header'),
        versioning: { type: VersioningType.HEADER, header: 'X-API-Version' },
      });
      await t.dataSource.getRepository(Book).save({ title: 'Solaris', pages: 204, rating: 4 });
    });

    afterAll(async () => {
      await t?.app.close();
    });

    it('serves the version the header names at the one path', async () => {
      const v1 = expectList(await server().get('/books').set('X-API-Version', '1'));
      expect(v1.items).toEqual([{ id: expect.any(Number), title: 'Solaris', pages: 204 }]);
      const v2 = expectList(await server().get('/books?page[size]=1').set('X-API-Version', '2'));
      expect(v2.items[0]).toMatchObject({ title: 'Solaris', rating: 4 });
    });

    it('answers problem details with the default problemDetails setting, and 404 without a version', async () => {
      expectProblem(
        await server().get('/books?page[size]=1').set('X-API-Version', '1'),
        400,
        'SVC_QUERY_UNSUPPORTED_PARAM',
      );
      expectProblem(await server().post('/books').set('X-API-Version', '1').send({ title: 'x' }), 403, 'SVC_FORBIDDEN');
      expectProblem(await server().get('/books'), 404, 'SVC_ROUTE_NOT_FOUND');
    });
  });
});
