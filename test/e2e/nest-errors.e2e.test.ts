/**
 * Svc inside someone else's Nest app: its problem-details answers stay on its own routes (the app's other routes keep
 * Nest's error format unless the app opts in), every 5xx it answers is logged through Nest's Logger with its cause and
 * the request id, and the request id travels back as a response header.
 */
import {
  Body,
  CanActivate,
  Catch,
  Controller,
  ForbiddenException,
  Get,
  HttpException,
  Injectable,
  Post,
  UseFilters,
  UseGuards,
  ValidationPipe,
  type ArgumentsHost,
  type CallHandler,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type INestApplication,
  type LoggerService,
  type Provider,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import type { Observable } from 'rxjs';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Svc, SvcModule, type SvcModuleOptions } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import { IsString } from 'class-validator';
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { initPlatformApp } from '../support/create-test-app';
import { testDataSourceOptions, TEST_DATABASES } from '../support/test-databases';

class CreateNote {
  @IsString() text!: string;
}

@Controller('plain')
class PlainController {
  @Post()
  create(@Body(new ValidationPipe()) body: CreateNote) {
    return body;
  }

  @Get('boom')
  boom(): never {
    throw new Error('plain failure');
  }
}

@Injectable()
class DenyGuard implements CanActivate {
  canActivate(): boolean {
    throw new ForbiddenException('no entry');
  }
}

@Svc(Book, {
  operations: {
    findMany: true,
    findOne: true,
    explodeOne: {
      kind: 'read',
      meta: { routes: { method: 'GET', path: 'explode' } },
      handler: () => {
        throw new Error('handler bug');
      },
    },
  },
})
@Controller('books')
class BooksController {}

@UseGuards(DenyGuard)
@Svc(Book, { operations: { findMany: true } })
@Controller('guarded-books')
class GuardedBooksController {}

class CapturingLogger implements LoggerService {
  readonly errors: string[] = [];
  log(): void {}
  warn(): void {}
  debug(): void {}
  verbose(): void {}
  error(message: unknown, ...rest: unknown[]): void {
    this.errors.push([message, ...rest].map(String).join('\n'));
  }
}

/** An app's own catch-all filter: answers `{ caughtBy, status }`, on Express and Fastify alike. */
@Catch()
class AppCatchAllFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const status = error instanceof HttpException ? error.getStatus() : 500;
    const body = { caughtBy: 'app-catch-all', status };
    this.adapterHost.httpAdapter.reply(host.switchToHttp().getResponse(), body, status);
  }
}

/** An app's global interceptor: stamps every answer it sees. */
@Injectable()
class StampInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const response = context.switchToHttp().getResponse<Record<string, unknown>>();
    const set = (response['header'] ?? response['setHeader']) as (name: string, value: string) => void;
    set.call(response, 'x-app-interceptor', 'ran');
    return next.handle();
  }
}

/** An app filter for one exception type, as apps write for their own domain errors. */
class TeapotError extends Error {}

@Catch(TeapotError)
class TeapotFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(_error: TeapotError, host: ArgumentsHost): void {
    this.adapterHost.httpAdapter.reply(host.switchToHttp().getResponse(), { caughtBy: 'teapot' }, 418);
  }
}

@Controller('teapot')
class TeapotController {
  @Get()
  brew(): never {
    throw new TeapotError('short and stout');
  }
}

/** An Svc controller that carries the app's own filter (above @Svc, so applied after it). */
@UseFilters(AppCatchAllFilter)
@Svc(Book, { operations: { findMany: true, findOne: true } })
@Controller('filtered-books')
class FilteredBooksController {}

describe.each(TEST_DATABASES.filter((db) => db.name === 'sqlite'))('Svc inside a Nest app ($name)', (db) => {
  const boot = async (
    svc: SvcModuleOptions = {},
    app: { providers?: Provider[]; controllers?: Type[]; beforeInit?: (app: INestApplication) => void } = {},
  ) => {
    const logger = new CapturingLogger();
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(await testDataSourceOptions(db, 'e2e_nest_errors', BOOKSTORE_ENTITIES)),
        SvcModule.forRoot({ infrastructure: typeorm(), ...svc }),
      ],
      controllers: [PlainController, BooksController, GuardedBooksController, ...(app.controllers ?? [])],
      providers: [DenyGuard, ...(app.providers ?? [])],
    }).compile();
    const nest: INestApplication = await initPlatformApp(moduleRef, { logger }, app.beforeInit);
    return { app: nest, server: nest.getHttpServer(), logger };
  };

  describe('by default', () => {
    let t: Awaited<ReturnType<typeof boot>>;
    beforeAll(async () => {
      t = await boot();
    });
    afterAll(() => t.app.close());

    it("leaves the app's other routes in Nest's own error format", async () => {
      const res = await request(t.server).post('/plain').send({ text: 3 });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: ['text must be a string'] });
      const unknown = await request(t.server).get('/nowhere');
      expect(unknown.body).toMatchObject({ statusCode: 404 });
    });

    it('answers problem+json on its own routes: before routing, in a guard, under its paths', async () => {
      const badJson = await request(t.server).post('/books').set('Content-Type', 'application/json').send('{oops');
      expect(badJson.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(badJson.body).toMatchObject({ code: 'SVC_MALFORMED_REQUEST' });
      const guarded = await request(t.server).get('/guarded-books');
      expect(guarded.status).toBe(403);
      expect(guarded.headers['content-type']).toMatch(/^application\/problem\+json/);
      const unknown = await request(t.server).get('/books/1/nothing/here');
      expect(unknown.body).toMatchObject({ code: 'SVC_ROUTE_NOT_FOUND' });
    });

    it('logs every 5xx it answers with its cause and the request id, and sends the id back', async () => {
      const res = await request(t.server).get('/books/explode').set('X-Request-Id', 'trace-123');
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ code: 'SVC_INTERNAL', requestId: 'trace-123' });
      expect(res.headers['x-request-id']).toBe('trace-123');
      const logged = t.logger.errors.find((entry) => entry.includes('trace-123'));
      expect(logged).toContain('SVC_INTERNAL');
      expect(logged).toContain('handler bug');
    });

    it('sends a request id on its successful answers too', async () => {
      const res = await request(t.server).get('/books').expect(200);
      expect(res.headers['x-request-id']).toMatch(/^[\w.:-]+$/);
    });
  });

  describe("with problemDetails: 'all'", () => {
    let t: Awaited<ReturnType<typeof boot>>;
    beforeAll(async () => {
      t = await boot({ problemDetails: 'all' });
    });
    afterAll(() => t.app.close());

    it("answers the app's other routes as problem+json as well", async () => {
      const res = await request(t.server).post('/plain').send({ text: 3 });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const boom = await request(t.server).get('/plain/boom');
      expect(boom.status).toBe(500);
      expect(t.logger.errors.some((entry) => entry.includes('plain failure'))).toBe(true);
    });
  });

  /** What an app's catch-all filter must still answer, and what stays Svc's, however the filter is registered. */
  const expectAppFilterKept = (booted: () => Awaited<ReturnType<typeof boot>>) => {
    it("leaves the app's routes to the app's filter: a pipe's refusal, a failure, an unknown path", async () => {
      const invalid = await request(booted().server).post('/plain').send({ text: 3 });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({ caughtBy: 'app-catch-all', status: 400 });
      const boom = await request(booted().server).get('/plain/boom');
      expect(boom.body).toEqual({ caughtBy: 'app-catch-all', status: 500 });
      const unknown = await request(booted().server).get('/nowhere');
      expect(unknown.body).toEqual({ caughtBy: 'app-catch-all', status: 404 });
    });

    it('keeps problem+json on its own routes: before routing, in a guard, in a handler, under its paths', async () => {
      const badJson = await request(booted().server)
        .post('/books')
        .set('Content-Type', 'application/json')
        .send('{oops');
      expect(badJson.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(badJson.body).toMatchObject({ code: 'SVC_MALFORMED_REQUEST' });
      const guarded = await request(booted().server).get('/guarded-books');
      expect(guarded.status).toBe(403);
      expect(guarded.body).toMatchObject({ code: 'SVC_FORBIDDEN' });
      const missing = await request(booted().server).get('/books/999999');
      expect(missing.body).toMatchObject({ code: 'SVC_NOT_FOUND' });
      const exploded = await request(booted().server).get('/books/explode');
      expect(exploded.body).toMatchObject({ code: 'SVC_INTERNAL' });
      const unknown = await request(booted().server).get('/books/1/nothing/here');
      expect(unknown.body).toMatchObject({ code: 'SVC_ROUTE_NOT_FOUND' });
    });

    it("still lets the app's filter on an Svc controller (@UseFilters) answer that controller's errors", async () => {
      // The app's filter gets Svc's own exception (an SvcException, with its status and code) and answers as it likes.
      const missing = await request(booted().server).get('/filtered-books/999999');
      expect(missing.body).toMatchObject({ caughtBy: 'app-catch-all' });
    });
  };

  describe('with an app filter registered as APP_FILTER', () => {
    let t: Awaited<ReturnType<typeof boot>>;
    beforeAll(async () => {
      t = await boot(
        {},
        {
          providers: [{ provide: APP_FILTER, useClass: AppCatchAllFilter }],
          controllers: [FilteredBooksController],
        },
      );
    });
    afterAll(() => t.app.close());
    expectAppFilterKept(() => t);
  });

  describe('with an app filter registered by useGlobalFilters', () => {
    let t: Awaited<ReturnType<typeof boot>>;
    beforeAll(async () => {
      t = await boot(
        {},
        {
          controllers: [FilteredBooksController],
          beforeInit: (app) => {
            app.useGlobalFilters(new AppCatchAllFilter(app.get(HttpAdapterHost)));
            app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
            app.useGlobalInterceptors(new StampInterceptor());
          },
        },
      );
    });
    afterAll(() => t.app.close());
    expectAppFilterKept(() => t);

    it("keeps the app's global pipe and interceptor on Svc's routes and its own", async () => {
      const svcRoute = await request(t.server).get('/books?limit=1').expect(200);
      expect(svcRoute.headers['x-app-interceptor']).toBe('ran');
      const plain = await request(t.server).post('/plain').send({ text: 'ok', extra: 1 });
      // The global pipe refuses the unknown property, and the app's filter answers it.
      expect(plain.body).toEqual({ caughtBy: 'app-catch-all', status: 400 });
    });
  });

  describe('with an app filter for one error type, and none for the rest', () => {
    let t: Awaited<ReturnType<typeof boot>>;
    beforeAll(async () => {
      t = await boot(
        {},
        { providers: [{ provide: APP_FILTER, useClass: TeapotFilter }], controllers: [TeapotController] },
      );
    });
    afterAll(() => t.app.close());

    it("hands the app's own error to its filter, and the others to Nest's own answer", async () => {
      const teapot = await request(t.server).get('/teapot');
      expect(teapot.status).toBe(418);
      expect(teapot.body).toEqual({ caughtBy: 'teapot' });
      const invalid = await request(t.server).post('/plain').send({ text: 3 });
      expect(invalid.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });

    it('keeps problem+json on its own routes', async () => {
      const missing = await request(t.server).get('/books/999999');
      expect(missing.body).toMatchObject({ code: 'SVC_NOT_FOUND' });
    });
  });
});
