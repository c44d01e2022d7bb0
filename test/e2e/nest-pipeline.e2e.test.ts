/**
 * Generated routes return their result through Nest's pipeline: global, controller and route interceptors see it
 * (and may reshape it), while the status, ETag, Location, 204 and 304 stay exactly what Svc decided, and errors still
 * answer as problem+json.
 */
import {
  ClassSerializerInterceptor,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import request from 'supertest';
import { map, type Observable } from 'rxjs';
import { Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, TEST_PLATFORM, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectProblem } from './support/e2e-http';

const seen: string[] = [];

/** Wraps every result as `{ data }` and records what it saw. */
@Injectable()
class WrapInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((data: unknown) => {
        seen.push(`${context.getHandler().name}:${data === undefined ? 'empty' : typeof data}`);
        return data === undefined ? undefined : { data };
      }),
    );
  }
}

/** Stamps a header on the way out, as a timing interceptor would. */
@Injectable()
class TimingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    // `header(name, value)`: Express's response and Fastify's reply both have it.
    const response = context.switchToHttp().getResponse<{ header(name: string, value: string): void }>();
    return next.handle().pipe(
      map((data: unknown) => {
        response.header('X-Timed', 'yes');
        return data;
      }),
    );
  }
}

describe.each(TEST_DATABASES.filter((db) => db.name === 'sqlite'))("Nest's pipeline on $name", (db) => {
  let t: TestApp;
  let id: number;
  const Wrapped = svcController('wrapped', Book, {
    operations: {
      findMany: true,
      findOne: true,
      createOne: true,
      deleteOne: true,
      patchOne: { meta: { decorators: [UseInterceptors(WrapInterceptor)] } },
    },
  });
  UseInterceptors(TimingInterceptor)(Wrapped);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_nest_pipeline',
      entities: BOOKSTORE_ENTITIES,
      controllers: [Wrapped],
      providers: [
        WrapInterceptor,
        TimingInterceptor,
        { provide: APP_INTERCEPTOR, useClass: ClassSerializerInterceptor },
      ] as never,
    });
    id = (await t.dataSource.getRepository(Book).save({ title: 'Piped' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('runs controller interceptors on every route, with the result Svc made', async () => {
    const list = await request(t.server).get('/wrapped').expect(200);
    expect(list.headers['x-timed']).toBe('yes');
    expect(list.body.items.map((item: { title: string }) => item.title)).toEqual(['Piped']);
  });

  it('runs a route interceptor that reshapes the result, keeping the status and ETag Svc decided', async () => {
    const res = await request(t.server).patch(`/wrapped/${id}`).send({ pages: 3 }).expect(200);
    expect(res.body).toEqual({ data: expect.objectContaining({ id, pages: 3 }) });
    expect(res.headers['etag']).toMatch(/^"/);
    expect(seen).toContain('svc_PATCH__id:object');
  });

  it('keeps 201 with Location, 304 and 204 exact', async () => {
    const created = await request(t.server).post('/wrapped').send({ title: 'New' }).expect(201);
    expect(created.headers['location']).toBe(`/wrapped/${created.body.id}`);
    const read = await request(t.server).get(`/wrapped/${created.body.id}`).expect(200);
    const cached = await request(t.server)
      .get(`/wrapped/${created.body.id}`)
      .set('If-None-Match', read.headers['etag']);
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    const deleted = await request(t.server).delete(`/wrapped/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.headers['x-timed']).toBe('yes');
  });

  it("writes results with the app's JSON settings (json spaces, json replacer) on Express", async () => {
    const express = t.app.getHttpAdapter().getInstance() as { set?(name: string, value: unknown): void };
    if (TEST_PLATFORM !== 'express' || !express.set) return;
    const compact = await request(t.server).get(`/wrapped/${id}`).expect(200);
    expect(compact.text).toBe(JSON.stringify(compact.body));
    express.set('json spaces', 2);
    express.set('json replacer', (key: string, value: unknown) => (key === 'isbn' ? undefined : value));
    try {
      const pretty = await request(t.server).get(`/wrapped/${id}`).expect(200);
      const { isbn: _isbn, ...withoutIsbn } = compact.body as Record<string, unknown>;
      expect(pretty.text).toBe(JSON.stringify(withoutIsbn, null, 2));
      expect(pretty.headers['etag']).toBe(compact.headers['etag']);
      expect(pretty.headers['content-type']).toBe(compact.headers['content-type']);
    } finally {
      express.set('json spaces', undefined);
      express.set('json replacer', undefined);
    }
  });

  it('still answers errors as problem+json', async () => {
    expectProblem(await request(t.server).get('/wrapped/987654'), 404, 'SVC_NOT_FOUND');
    expectProblem(await request(t.server).patch(`/wrapped/${id}`).send({ nope: 1 }), 400, 'SVC_VALIDATION_FAILED');
  });
});
