/**
 * Custom operations, @Override with dependency injection, route options and service.run: routes, statuses, the
 * scoped `context.repository` inside the request's transaction, and the projection rules of custom results.
 */
import { Controller, Injectable } from '@nestjs/common';
import {
  builtInHandlers,
  SvcException,
  withListMeta,
  type EntityConfig,
  type SvcContext,
  type StandardSchemaV1,
  type SvcOperationInput,
} from '@svc/core';
import { InjectSvc, Override, Svc, SvcRegistry } from '@svc/nestjs';
import { SvcService } from '@svc/core';
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Book, Edition, Note } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const repo = (context: SvcContext) => context.repository!;
const idOf = (input: SvcOperationInput) => input.key as { id: number };

/** A narrower, own shape: served from the class's runtime fields. */
class PublishReceipt {
  published = false;
  title = '';
}
class NoRuntimeFields {
  declare published: boolean;
}
/** An instance whose values are accessors, none of them an entity field. */
class Accessors {
  get headline(): string {
    return 'x';
  }
}

/** A Standard Schema for a custom write's body: `{ title }`, a non-empty string. */
const RETITLE: StandardSchemaV1 = {
  '~standard': {
    validate: (value) => {
      const title = (value as { title?: unknown } | null)?.title;
      return typeof title === 'string' && title !== ''
        ? { value: { title } }
        : { issues: [{ message: 'title must be a non-empty string', path: ['title'] }] };
    },
  },
};

const BOOKS: EntityConfig = {
  include: { fields: ['author'] },
  operations: {
    findMany: true,
    findOne: true,
    createOne: true,
    publishOne: {
      meta: { routes: { method: 'PATCH', path: ':id/publish', successStatus: 200 } },
      handler: async (input, context) => {
        await repo(context).update(idOf(input), { published: true });
        return repo(context).findOne({ key: idOf(input) });
      },
    },
    renameOne: {
      // The default route: POST /renameOne, 201.
      handler: async (input, context) => {
        const { id, title } = input.body as { id: number; title: string };
        await repo(context).update({ id }, { title });
        if (title === 'rollback') throw new SvcException('SVC_CONFLICT', { detail: 'refused after writing' });
        return repo(context).findOne({ key: { id } });
      },
    },
    titleOnlyOne: {
      kind: 'read',
      // Reproduces findOne's route shape, so it takes it.
      meta: { routes: { method: 'GET', path: ':id', successStatus: 200 } },
      handler: async (input, context) => {
        const row = await repo(context).findOne({ key: idOf(input) });
        return row && { id: row['id'], title: row['title'] };
      },
    },
    shortBooksMany: {
      kind: 'read',
      cardinality: 'many',
      meta: { routes: { method: 'GET', path: 'short', successStatus: 200 } },
      handler: withListMeta(builtInHandlers.findMany, (result) => ({ shortOnPage: result.entities.length })),
    },
    receiptOne: {
      schema: { output: PublishReceipt },
      handler: () => Object.assign(new PublishReceipt(), { published: true, title: 'Receipt', extra: 'dropped' }),
    },
    strangerOne: {
      handler: async (input, context) => {
        await repo(context).update({ id: Number((input.body as { id: number }).id) }, { pages: 999 });
        return { stranger: true };
      },
    },
    hollowOne: { schema: { output: NoRuntimeFields }, handler: () => ({ published: true }) },
    accessorOne: { handler: () => new Accessors() },
    listOne: { handler: () => [{ title: 'a', foo: 1 }, { title: 'b' }] },
    strangerReadOne: { kind: 'read', handler: () => ({ nothing: 'in common' }) },
    bumpOne: {
      kind: 'read',
      meta: { routes: { method: 'GET', path: ':id/bump', successStatus: 200 } },
      // A read handler may write: each write is a transaction of its own.
      handler: async (input, context) => {
        const row = await repo(context).findOne({ key: idOf(input) });
        await repo(context).update(idOf(input), { pages: Number(row!['pages']) + 1 });
        return repo(context).findOne({ key: idOf(input) });
      },
    },
    retitleOne: {
      meta: { routes: { path: ':id/retitle' } },
      schema: { input: RETITLE },
      handler: async (input, context) => {
        await repo(context).update(idOf(input), { title: (input.body as { title: string }).title.toUpperCase() });
        return repo(context).findOne({ key: idOf(input) });
      },
    },
    peekOne: {
      kind: 'read',
      meta: { routes: { method: 'GET', path: ':id/peek' } },
      handler: async (input, context) => (await repo(context).findOne({ key: idOf(input) })) ?? { title: 'hidden' },
    },
    sleepingOne: { enabled: false, handler: () => ({ title: 'never' }) },
  },
};

/** Reports what a handler gets as `input.id` and `input.key`, through a text field every entity here has. */
const echoed: { id?: unknown; key?: unknown }[] = [];
const ECHO = {
  kind: 'read' as const,
  meta: { routes: { method: 'GET' as const, path: ':id/echo', successStatus: 200 } },
  handler: (input: SvcOperationInput) => {
    echoed.push({ id: input.id, key: input.key });
    return null;
  },
};

const EchoBooks = svcController('echo-books', Book, { operations: { findOne: true, echoOne: ECHO } });

@Injectable()
class Clock {
  now(): string {
    return '2026-11-23T12:00:00.000Z';
  }
}

@Svc(Book, {
  operations: {
    findOne: true,
    createOne: { meta: { routes: { successStatus: 200 } } },
    deleteOne: { meta: { routes: { enabled: false } } },
    findMany: { meta: { routes: { path: 'all' } } },
    stampOne: { meta: { routes: { method: 'POST', path: ':id/stamp' } } },
  },
})
@Controller('overridden')
class OverriddenBooksController {
  constructor(
    private readonly clock: Clock,
    @InjectSvc(Book) private readonly books: SvcService<Book>,
  ) {}

  @Override('stampOne')
  async stamp(input: SvcOperationInput, context: SvcContext) {
    await repo(context).update(idOf(input), { title: `stamped ${this.clock.now()}` });
    return repo(context).findOne({ key: idOf(input) });
  }

  @Override('findOne')
  async findOne(input: SvcOperationInput, context: SvcContext) {
    const row = await repo(context).findOne({ key: idOf(input) });
    return row ? { ...row, title: `${String(row['title'])} (via override, ${typeof this.books.run})` } : row;
  }
}

describe.each(TEST_DATABASES)('custom operations on $name', (db) => {
  let t: TestApp;
  let ids: number[];
  const server = () => request(t.server);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_custom_ops',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, BOOKS),
        EchoBooks,
        svcController('echo-notes', Note, { operations: { findOne: true, echoOne: ECHO } }),
        svcController('echo-editions', Edition, { operations: { findOne: true, echoOne: ECHO } }),
        svcController('handled', Book, {
          operations: {
            findOne: true,
            patchOne: {
              handler: async (input, context) => {
                await repo(context).update(idOf(input), input.body as Record<string, unknown>);
                return repo(context).findOne({ key: idOf(input) });
              },
            },
          },
        }),
        svcController('scoped', Book, {
          filter: { apply: () => ({ published: { eq: true } }) },
          operations: {
            touchOne: {
              meta: { routes: { path: ':id/touch' } },
              handler: async (input, context) => {
                await repo(context).update(idOf(input), { pages: 7 });
                return repo(context).findOne({ key: idOf(input) });
              },
            },
          },
        }),
        OverriddenBooksController,
      ],
      providers: [Clock],
    });
    const saved = await t.dataSource
      .getRepository(Book)
      .save(Array.from({ length: 6 }, (_, i) => ({ title: `Book ${i}`, pages: i * 50, published: i === 0 })));
    ids = saved.map((book) => book.id);
  });
  afterAll(() => t.close());

  it('routes a write with its route options, runs it in a transaction and projects the row', async () => {
    const response = await server().patch(`/books/${ids[1]}/publish`).send({}).expect(200);
    expect(response.body).toMatchObject({ id: ids[1], published: true, title: 'Book 1' });
    expect(response.headers['etag']).toMatch(/^"/);
  });

  it('routes POST /<operation id> with 201 by default', async () => {
    const response = await server().post('/books/renameOne').send({ id: ids[2], title: 'Renamed' }).expect(201);
    expect(response.body).toMatchObject({ id: ids[2], title: 'Renamed' });
  });

  it('rolls the whole write back when the handler fails after writing', async () => {
    await server().post('/books/renameOne').send({ id: ids[3], title: 'rollback' }).expect(409);
    expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id: ids[3] })).title).toBe('Book 3');
  });

  it('answers a many read with the list envelope, query parameters and withListMeta', async () => {
    const response = await server().get('/books/short?filter[pages][lt]=200&limit=2&sort=pages').expect(200);
    expect(response.body).toMatchObject({ limit: 2, offset: 0, total: 4, meta: { shortOnPage: 2 } });
    expect(response.body.items.map((item: { pages: number }) => item.pages)).toEqual([0, 50]);
    const bad = await server().get('/books/short?filter[nope][eq]=1').expect(400);
    expect(bad.body.code).toBe('SVC_QUERY_INVALID');
  });

  it('takes a standard route when it reproduces its shape, serving a narrower entity shape as is', async () => {
    const response = await server().get(`/books/${ids[0]}`).expect(200);
    expect(response.body).toEqual({ id: ids[0], title: 'Book 0' });
  });

  it('serves an own shape through a schema class with runtime fields', async () => {
    const response = await server().post('/books/receiptOne').send({}).expect(201);
    expect(response.body).toEqual({ published: true, title: 'Receipt' });
  });

  it.each([
    ['strangerOne', 'no field in common'],
    ['hollowOne', 'no runtime fields'],
    ['accessorOne', 'no field in common'],
  ])('answers SVC_CONFIG_INVALID naming %s when the projection empties its result', async (operation, cause) => {
    const response = await server().post(`/books/${operation}`).send({ id: ids[4] }).expect(500);
    expect(response.body.code).toBe('SVC_CONFIG_INVALID');
    if (operation === 'strangerOne') {
      // The handler's write stands.
      expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id: ids[4] })).pages).toBe(999);
    }
    expect(response.body.detail).toContain(`operations.${operation}`);
    expect(response.body.detail).toContain(cause);
  });

  it('projects each element of an array result', async () => {
    const response = await server().post('/books/listOne').send({}).expect(201);
    expect(response.body).toEqual([{ title: 'a' }, { title: 'b' }]);
  });

  it('does not raise for an emptied read under an explicit select=', async () => {
    const response = await server().post('/books/strangerReadOne?select=title').send().expect(201);
    expect(response.body).toEqual({});
    await server().post('/books/strangerReadOne').send().expect(500);
  });

  it('validates a write body with schema.input before the handler runs', async () => {
    const bad = await server().post(`/books/${ids[4]}/retitle`).send({ title: '' }).expect(400);
    expect(bad.body).toMatchObject({ code: 'SVC_VALIDATION_FAILED', errors: [{ field: 'title' }] });
    const good = await server().post(`/books/${ids[4]}/retitle`).send({ title: 'loud' }).expect(201);
    expect(good.body.title).toBe('LOUD');
  });

  it('hides soft-deleted rows from context.repository, as the standard reads do', async () => {
    const [gone] = await t.dataSource.getRepository(Book).save([{ title: 'Gone soon' }]);
    await t.dataSource.getRepository(Book).softDelete(gone!.id);
    const response = await server().get(`/books/${gone!.id}/peek`).expect(201);
    expect(response.body).toEqual({ title: 'hidden' });
  });

  it('answers 304 to If-None-Match on a custom read, and embeds include= relations', async () => {
    const first = await server().get(`/books/${ids[0]}`).expect(200);
    await server().get(`/books/${ids[0]}`).set('If-None-Match', first.headers['etag']!).expect(304);
    const page = await server().get('/books/short?include=author&limit=1&sort=id').expect(200);
    expect(page.body.items[0]).toHaveProperty('author');
  });

  it('lets a read handler write, each write in its own transaction', async () => {
    const before = (await t.dataSource.getRepository(Book).findOneByOrFail({ id: ids[0] })).pages;
    const response = await server().get(`/books/${ids[0]}/bump`).expect(200);
    expect(response.body.pages).toBe(before + 1);
  });

  it('takes a bodiless POST to a custom write without a Content-Type', async () => {
    await server().post('/books/receiptOne').expect(201);
  });

  it('checks If-Match on the locked row before a replacement handler of a standard write', async () => {
    const current = await server().get(`/handled/${ids[5]}`).expect(200);
    await server().patch(`/handled/${ids[5]}`).set('If-Match', '"stale"').send({ pages: 3 }).expect(412);
    await server().patch(`/handled/${ids[5]}`).set('If-Match', current.headers['etag']!).send({ pages: 3 }).expect(200);
  });

  it('refuses If-Match with 412 SVC_PRECONDITION_UNSUPPORTED', async () => {
    const response = await server()
      .post('/books/renameOne')
      .set('If-Match', '"x"')
      .send({ id: ids[2], title: 'x' })
      .expect(412);
    expect(response.body.code).toBe('SVC_PRECONDITION_UNSUPPORTED');
  });

  it('lists custom routes in OPTIONS', async () => {
    const response = await server().options(`/books/${ids[0]}/publish`).expect(204);
    expect(response.headers['allow']).toBe('PATCH, OPTIONS');
  });

  it('gives a disabled custom operation no route, and 405 when called', async () => {
    await server().post('/books/sleepingOne').send({}).expect(404);
    const error = await t.app
      .get(SvcRegistry)
      .serviceFor(Book)
      .engine.execute({ operation: 'sleepingOne' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'SVC_OPERATION_DISABLED', status: 405 });
  });

  describe('input.id and input.key', () => {
    it('give an integer key as a number, and the key object', async () => {
      echoed.length = 0;
      await server().get(`/echo-books/${ids[0]}/echo`).expect(200);
      const echo = new SvcService(t.app.get(SvcRegistry).engineFor(EchoBooks));
      await echo.run('echoOne', { id: ids[0] });
      await echo.run('echoOne', { id: String(ids[0]) });
      expect(echoed).toEqual(Array.from({ length: 3 }, () => ({ id: ids[0], key: { id: ids[0] } })));
    });

    it('give a uuid key as a string', async () => {
      echoed.length = 0;
      const uuid = '6f1c2a9e-3b7d-4c1a-9e2f-0a1b2c3d4e5f';
      await server().get(`/echo-notes/${uuid}/echo`).expect(200);
      expect(echoed).toEqual([{ id: uuid, key: { id: uuid } }]);
    });

    it('give a composite key as an object in both', async () => {
      echoed.length = 0;
      await server().get('/echo-editions/7,first/echo').expect(200);
      expect(echoed).toEqual([{ id: { bookId: 7, code: 'first' }, key: { bookId: 7, code: 'first' } }]);
    });

    it('reach replacement handlers of standard operations the same way', async () => {
      const res = await server().patch(`/handled/${ids[1]}`).send({ pages: 11 }).expect(200);
      expect(res.body).toMatchObject({ id: ids[1], pages: 11 });
    });
  });

  it('runs custom operations through service.run and engine.execute, unwrapped and whole', async () => {
    const books = t.app.get(SvcRegistry).serviceFor<Book>(Book);
    const renamed = await books.run<Book>('renameOne', { body: { id: ids[2], title: 'Run' } });
    expect(renamed).toMatchObject({ id: ids[2], title: 'Run' });
    const page = await books.run<{ items: Book[]; total: number }>('shortBooksMany', { query: { limit: 1 } });
    expect(page).toMatchObject({ limit: 1, total: 6 });
    const whole = await books.engine.execute({ operation: 'titleOnlyOne', id: String(ids[0]) });
    expect(whole).toMatchObject({ status: 200, body: { id: ids[0], title: 'Book 0' } });
    expect(whole.etag).toMatch(/^"/);
  });

  it('keeps filter.apply in context.repository: a row outside the scope is 404 for reads and writes', async () => {
    const inside = await server().post(`/scoped/${ids[0]}/touch`).send({}).expect(201);
    expect(inside.body).toMatchObject({ id: ids[0], pages: 7 });
    const outside = await server().post(`/scoped/${ids[3]}/touch`).send({}).expect(404);
    expect(outside.body.code).toBe('SVC_NOT_FOUND');
    expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id: ids[3] })).pages).toBe(150);
  });

  it('runs @Override methods with injected providers, keeping the generated route and its ETag', async () => {
    const stamped = await server().post(`/overridden/${ids[5]}/stamp`).send({}).expect(201);
    expect(stamped.body.title).toBe('stamped 2026-11-23T12:00:00.000Z');
    const found = await server().get(`/overridden/${ids[5]}`).expect(200);
    expect(found.body.title).toBe('stamped 2026-11-23T12:00:00.000Z (via override, function)');
    expect(found.headers['etag']).toMatch(/^"/);
  });

  it('applies route options to standard operations: path, successStatus and enabled: false', async () => {
    const all = await server().get('/overridden/all').expect(200);
    expect(all.body.items.length).toBeGreaterThan(0);
    await server().get('/overridden').expect(404);
    const created = await server().post('/overridden').send({ title: 'Made' }).expect(200);
    await server().delete(`/overridden/${created.body.id}`).expect(404);
    // enabled: false is service-only: no route, but the engine runs it.
    const engine = t.app.get(SvcRegistry).engineFor(OverriddenBooksController);
    expect(await engine.execute({ operation: 'deleteOne', id: String(created.body.id) })).toMatchObject({
      status: 204,
    });
  });
});

describe('custom operation bootstrap errors', () => {
  const boot = (controller: Function) =>
    bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_custom_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [controller as never],
    });

  it("fails the module's bind step for an entry with neither handler nor override, naming it", async () => {
    const error = await boot(svcController('x', Book, { operations: { archiveOne: true } }));
    expect(error.message).toContain('operations.archiveOne');
    expect(error.message).toContain('@Override');
  });

  it('refuses an @Override of an operation the entity does not serve', async () => {
    @Svc(Book, { operations: { findOne: true } })
    @Controller('y')
    class StrayOverrideController {
      @Override('deleteOne')
      remove() {
        return undefined;
      }
    }
    const error = await boot(StrayOverrideController);
    expect(error.message).toContain("@Override('deleteOne')");
  });

  it('refuses a custom id that differs from a standard one only by case', async () => {
    const error = await boot(svcController('z', Book, { operations: { FindOne: { handler: () => ({}) } } }));
    expect(error.message).toContain("'findOne'");
  });
});
