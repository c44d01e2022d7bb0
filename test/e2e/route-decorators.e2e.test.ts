/**
 * Per-operation decorators: `operations.<id>.meta.decorators` (and `relations.<name>.write.decorators` for relation
 * routes) reach that operation's generated route only, as if written on its method: a guard, or metadata a guard reads.
 */
import {
  ForbiddenException,
  Injectable,
  SetMetadata,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES, Tag } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectProblem } from './support/e2e-http';

/** Lets a request through only with `x-role: editor`. */
@Injectable()
class EditorGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const role = context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-role'];
    if (role !== 'editor') throw new ForbiddenException('editors only');
    return true;
  }
}

/** A controller-wide guard that reads the `audience` metadata an operation sets on its own route. */
@Injectable()
class AudienceGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    const audience = this.reflector.get<string | undefined>('audience', context.getHandler());
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-audience'];
    return audience === undefined || audience === header;
  }
}

describe.each(TEST_DATABASES.filter((db) => db.name === 'sqlite'))('Route decorators on $name', (db) => {
  let t: TestApp;
  const Books = svcController('books', Book, {
    relations: { tags: { write: { strategy: 'resource', decorators: [UseGuards(EditorGuard)] } } },
    operations: {
      findMany: { meta: { decorators: [SetMetadata('audience', 'staff')] } },
      findOne: true,
      createOne: { meta: { decorators: [UseGuards(EditorGuard)] } },
      stampOne: {
        meta: { routes: { method: 'POST', path: ':id/stamp' }, decorators: [UseGuards(EditorGuard)] },
        handler: () => null,
      },
    },
  });
  UseGuards(AudienceGuard)(Books);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_route_decorators',
      entities: BOOKSTORE_ENTITIES,
      controllers: [Books, svcController('tags', Tag)],
      providers: [EditorGuard, AudienceGuard],
    });
    await t.dataSource.getRepository(Book).save({ title: 'Guarded' });
    await t.dataSource.getRepository(Tag).save({ name: 'x' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it("guards the decorated operation's route only", async () => {
    expectProblem(await request(t.server).post('/books').send({ title: 'no' }), 403, 'SVC_FORBIDDEN');
    expect((await request(t.server).post('/books').set('x-role', 'editor').send({ title: 'yes' })).status).toBe(201);
    expect((await request(t.server).get('/books/1')).status).toBe(200);
  });

  it('reaches custom and relation routes', async () => {
    expectProblem(await request(t.server).post('/books/1/stamp'), 403, 'SVC_FORBIDDEN');
    expect((await request(t.server).post('/books/1/stamp').set('x-role', 'editor')).status).toBe(204);
    expectProblem(await request(t.server).post('/books/1/tags').send([1]), 403, 'SVC_FORBIDDEN');
    expect((await request(t.server).post('/books/1/tags').set('x-role', 'editor').send([1])).status).toBe(200);
  });

  it('sets metadata that the controller’s own guards read for that route', async () => {
    expectProblem(await request(t.server).get('/books'), 403, 'SVC_FORBIDDEN');
    expect((await request(t.server).get('/books').set('x-audience', 'staff')).status).toBe(200);
  });

  it('refuses decorators that are not functions at bootstrap', async () => {
    const error = await bootstrapFailure({
      db,
      suite: 'e2e_route_decorators_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          operations: { findMany: { meta: { decorators: ['UseGuards' as never] } } },
        }),
      ],
    });
    expect(error.message).toContain('operations.findMany.meta.decorators');
  });
});
