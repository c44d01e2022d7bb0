/**
 * The routes Nest maps for an Svc controller are the routes its entity answers: restore and purge only where the
 * entity soft-deletes, the event stream only where its events are streamed. Nest's route log, `OPTIONS` and the
 * OpenAPI document list the same routes; an operation the global map disables keeps its route, which answers 405.
 */
import type { INestApplication, LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SvcModule } from '@svc/nestjs';
import { sse } from '@svc/sse';
import { typeorm } from '@svc/typeorm';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Author, BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { initPlatformApp, svcController, TEST_PLATFORM } from '../support/create-test-app';
import { TEST_DATABASES, testDataSourceOptions } from '../support/test-databases';
import { expectProblem } from './support/e2e-http';

/** Every `Mapped {<path>, <METHOD>} route` line Nest's router logs while the app boots, as `METHOD path`. */
function routeLog(): { readonly logger: LoggerService; readonly mapped: string[] } {
  const mapped: string[] = [];
  const record = (message: unknown) => {
    const route = /^Mapped \{(\S+), (\w+)\} route/.exec(String(message));
    if (route) mapped.push(`${route[2]} ${route[1]}`);
  };
  const ignore = () => undefined;
  return { logger: { log: record, error: ignore, warn: ignore, debug: ignore, verbose: ignore }, mapped };
}

/** The document's operations as `METHOD path`, in Nest's path syntax (`{id}` as `:id`). */
function documented(document: OpenAPIObject): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key))
      .map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}

const under = (prefix: string, routes: readonly string[]) =>
  routes.filter((route) => route.split(' ')[1] === prefix || route.split(' ')[1]!.startsWith(`${prefix}/`)).sort();

describe(`Mapped routes on ${TEST_PLATFORM}`, () => {
  // Which routes are mapped does not depend on the database; SQLite needs no setup.
  const db = TEST_DATABASES[0]!;
  const log = routeLog();
  let app: INestApplication;
  let server: ReturnType<INestApplication['getHttpServer']>;
  let document: OpenAPIObject;
  let authorId: number;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(await testDataSourceOptions(db, 'e2e_mapped_routes', BOOKSTORE_ENTITIES)),
        SvcModule.forRoot({
          infrastructure: typeorm(),
          // restoreOne switched off app-wide: Book's restore route stays and answers 405.
          operations: { restoreOne: false },
          realtimeTransports: [sse({ heartbeatMs: 1000 })],
        }),
      ],
      // Author deletes for good and publishes no events; Book soft-deletes (a delete-date column) and streams them.
      controllers: [svcController('authors', Author), svcController('books', Book, { realtime: {} })],
    }).compile();
    app = await initPlatformApp(moduleRef, { logger: log.logger });
    server = app.getHttpServer();
    document = SwaggerModule.createDocument(app, new DocumentBuilder().setTitle('routes').setVersion('1').build());
    authorId = (await app.get(DataSource).getRepository(Author).save({ name: 'Ann' })).id;
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('for an entity without soft delete or realtime', () => {
    it('maps no restore, purge or events route: Nest logs none', () => {
      expect(under('/authors', log.mapped)).toEqual(
        [
          'GET /authors',
          'POST /authors',
          'OPTIONS /authors',
          'GET /authors/:id',
          'PUT /authors/:id',
          'PATCH /authors/:id',
          'DELETE /authors/:id',
          'OPTIONS /authors/:id',
        ].sort(),
      );
    });

    it.each([
      ['PATCH', `restore`],
      ['DELETE', `purge`],
      ['OPTIONS', `restore`],
      ['OPTIONS', `purge`],
    ] as const)('answers %s /authors/:id/%s as an unknown route: 404 problem+json', async (method, action) => {
      const url = `/authors/${authorId}/${action}`;
      const res = await request(server)[method === 'PATCH' ? 'patch' : method === 'DELETE' ? 'delete' : 'options'](url);
      expectProblem(res, 404, 'SVC_ROUTE_NOT_FOUND');
      expect(res.body.detail).toContain(`/authors/${authorId}/${action}`);
    });

    it('answers GET /authors/events as the read by id of the row `events`, behind no route of its own', async () => {
      const events = await request(server).get('/authors/events');
      const other = await request(server).get('/authors/eventz');
      expect(events.status).toBe(400);
      expect(events.body.code).toBe('SVC_QUERY_INVALID');
      expect(events.body.errors).toEqual([
        { ...other.body.errors[0], detail: other.body.errors[0].detail.replace('eventz', 'events') },
      ]);
    });
  });

  describe('for an entity with soft delete and realtime', () => {
    it('maps restore, purge and events, each path with its OPTIONS', () => {
      expect(under('/books', log.mapped)).toEqual(
        expect.arrayContaining([
          'PATCH /books/:id/restore',
          'OPTIONS /books/:id/restore',
          'DELETE /books/:id/purge',
          'OPTIONS /books/:id/purge',
          'GET /books/events',
          'OPTIONS /books/events',
        ]),
      );
    });

    it('serves them: a purge deletes for good, the event stream opens', async () => {
      const book = (await request(server).post('/books').send({ title: 'Gone', authorId }).expect(201)).body;
      await request(server)
        .delete(`/books/${String(book.id)}`)
        .expect(204);
      await request(server)
        .delete(`/books/${String(book.id)}/purge`)
        .expect(204);
      expect(
        await app
          .get(DataSource)
          .getRepository(Book)
          .findOne({ where: { id: book.id }, withDeleted: true }),
      ).toBe(null);
      const stream = await request(server).head('/books/events').expect(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    });

    it('answers the restore route the global map disables with 405, whose Allow names OPTIONS alone', async () => {
      const res = await request(server).patch('/books/1/restore');
      expectProblem(res, 405, 'SVC_OPERATION_DISABLED');
      expect(res.headers['allow']).toBe('OPTIONS');
      const options = await request(server).options('/books/1/restore').expect(204);
      expect(options.headers['allow']).toBe('OPTIONS');
    });
  });

  describe('the route log, OPTIONS and the OpenAPI document', () => {
    it.each(['/authors', '/books'])('list the same routes under %s (the disabled restore is mapped only)', (prefix) => {
      const mapped = under(prefix, log.mapped).filter((route) => !route.startsWith('OPTIONS '));
      const disabled = prefix === '/books' ? ['PATCH /books/:id/restore'] : [];
      expect(mapped).toEqual([...under(prefix, documented(document)), ...disabled].sort());
    });

    it.each(['/authors', '/books'])(
      'give each mapped path under %s an Allow of its documented methods',
      async (prefix) => {
        const paths = new Set(under(prefix, log.mapped).map((route) => route.split(' ')[1]!));
        for (const path of paths) {
          expect(log.mapped).toContain(`OPTIONS ${path}`);
          const methods = documented(document)
            .filter((route) => route.split(' ')[1] === path)
            .map((route) => route.split(' ')[0]!);
          const expected = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].sort();
          const res = await request(server)
            .options(path.replace(':id', String(authorId)))
            .expect(204);
          expect({ path, allow: String(res.headers['allow']).split(', ').sort() }).toEqual({ path, allow: expected });
        }
      },
    );
  });
});
