/**
 * Svc inside someone else's Nest app: its problem-details answers stay on its own routes (the app's other routes keep
 * Nest's error format unless the app opts in), every 5xx it answers is logged through Nest's Logger with its cause and
 * the request id, and the request id travels back as a response header.
 */
import {
  Body,
  CanActivate,
  Controller,
  ForbiddenException,
  Get,
  Injectable,
  Post,
  UseGuards,
  ValidationPipe,
  type INestApplication,
  type LoggerService,
} from '@nestjs/common';
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

describe.each(TEST_DATABASES.filter((db) => db.name === 'sqlite'))('Svc inside a Nest app ($name)', (db) => {
  const boot = async (svc: SvcModuleOptions = {}) => {
    const logger = new CapturingLogger();
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(await testDataSourceOptions(db, 'e2e_nest_errors', BOOKSTORE_ENTITIES)),
        SvcModule.forRoot({ infrastructure: typeorm(), ...svc }),
      ],
      controllers: [PlainController, BooksController, GuardedBooksController],
      providers: [DenyGuard],
    }).compile();
    const app: INestApplication = await initPlatformApp(moduleRef, { logger });
    return { app, server: app.getHttpServer(), logger };
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
});
