/** SvcModule.forRoot / forRootAsync, typeorm() with and without an explicit DataSource, @InjectSvc, createSvc without Nest. */
import { Controller, Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigurationException, createCrud, createSvc, type SvcService } from '@svc/core';
import {
  InjectSvc,
  Svc,
  SvcModule,
  svcToken,
  type SvcModuleAsyncOptions,
  type SvcModuleOptions,
  type SvcOptionsFactory,
} from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { openTestDataSource, testDataSourceOptions, TEST_DATABASES } from '../support/test-databases';

@Svc(Book, { pagination: { defaultLimit: 5 } })
@Controller('books')
class BooksController {}

@Injectable()
class Shelf {
  constructor(@InjectSvc(Book) readonly books: SvcService<Book>) {}
}

@Module({ providers: [{ provide: 'LIMITS', useValue: { maxLimit: 3 } }], exports: ['LIMITS'] })
class LimitsModule {}

/** Makes the module's options from an injected provider, as a `useClass` or `useExisting` factory. */
@Injectable()
class SvcConfigService implements SvcOptionsFactory {
  constructor(@Inject('LIMITS') private readonly limits: { maxLimit: number }) {}
  createSvcOptions(): SvcModuleOptions {
    return { infrastructure: typeorm(), pagination: this.limits };
  }
}

@Module({ imports: [LimitsModule], providers: [SvcConfigService], exports: [SvcConfigService] })
class SvcConfigModule {}

describe.each(TEST_DATABASES)('the Nest binding on $name', (db) => {
  describe('SvcModule.forRootAsync', () => {
    it.each<[string, SvcModuleAsyncOptions]>([
      [
        'useFactory with injected providers',
        {
          imports: [LimitsModule],
          inject: ['LIMITS'],
          useFactory: (limits: { maxLimit: number }) => ({ infrastructure: typeorm(), pagination: limits }),
        },
      ],
      ['useClass', { imports: [LimitsModule], useClass: SvcConfigService }],
      ['useExisting', { imports: [SvcConfigModule], useExisting: SvcConfigService }],
    ])('takes its options from %s', async (_way, asyncOptions) => {
      const options = await testDataSourceOptions(db, 'e2e_binding', BOOKSTORE_ENTITIES);
      const moduleRef = await Test.createTestingModule({
        imports: [TypeOrmModule.forRoot(options), SvcModule.forRootAsync(asyncOptions)],
        controllers: [BooksController],
        providers: [Shelf],
      }).compile();
      const app = await moduleRef.createNestApplication({ logger: false }).init();
      try {
        const shelf = app.get(Shelf);
        for (const title of ['a', 'b', 'c', 'd']) await shelf.books.createOne({ title });
        const response = await request(app.getHttpServer()).get('/books?limit=50');
        expect(response.status).toBe(200);
        expect(response.body.limit).toBe(3);
        expect(response.body.items).toHaveLength(3);
        expect(response.body.total).toBe(4);
      } finally {
        await app.close();
      }
    });
  });

  it('hands out a service provider that Nest can probe before the module initialises', async () => {
    const options = await testDataSourceOptions(db, 'e2e_binding', BOOKSTORE_ENTITIES);
    const moduleRef = await Test.createTestingModule({
      imports: [TypeOrmModule.forRoot(options), SvcModule.forRoot({ infrastructure: typeorm() })],
      controllers: [BooksController],
    }).compile();
    try {
      const service = moduleRef.get<Record<string, unknown>>(svcToken(Book));
      // Nest 12 reads `constructor` (and `then`, lifecycle hooks) on factory results before init.
      expect(() => [service['constructor'], service['then'], service['onModuleInit']]).not.toThrow();
    } finally {
      await moduleRef.close();
    }
  });

  it('refuses forRootAsync without exactly one way to make the options', () => {
    expect(() => SvcModule.forRootAsync({})).toThrow(/exactly one of useFactory, useClass or useExisting/);
  });

  describe('@InjectSvc', () => {
    it('injects the entity service whose named methods return unwrapped results', async () => {
      const options = await testDataSourceOptions(db, 'e2e_binding', BOOKSTORE_ENTITIES);
      const moduleRef = await Test.createTestingModule({
        imports: [TypeOrmModule.forRoot(options), SvcModule.forRoot({ infrastructure: typeorm() })],
        controllers: [BooksController],
        providers: [Shelf],
      }).compile();
      const app = await moduleRef.createNestApplication({ logger: false }).init();
      try {
        const { books } = app.get(Shelf);
        const created = await books.createOne({ title: 'Injected', pages: 12 });
        expect(created).toMatchObject({ title: 'Injected', pages: 12 });
        expect(await books.findOne(created.id)).toMatchObject({ id: created.id });
        const list = await books.findMany({ filter: { pages: { gte: 10 } }, sort: ['-pages'] });
        expect(list).toMatchObject({ limit: 5, offset: 0, total: 1 });
        const perCall = await books.findMany({}, { settings: { pagination: { defaultLimit: 2, count: false } } });
        expect(perCall).toMatchObject({ limit: 2, total: null });
        // The programmatic query passes the same allowlists and limits as the wire.
        expect(await books.findMany({ limit: 1000 })).toMatchObject({ limit: 100 });
        await expect(books.findMany({ filter: { nope: { eq: 1 } } })).rejects.toMatchObject({
          code: 'SVC_QUERY_INVALID',
          errors: [{ param: 'filter[nope]' }],
        });
        const deep = { not: { not: { not: { not: { pages: { eq: 1 } } } } } };
        await expect(books.findMany({ filter: deep })).rejects.toMatchObject({ code: 'SVC_QUERY_INVALID' });
        await expect(books.findMany({ sort: ['-nope'] })).rejects.toMatchObject({ code: 'SVC_QUERY_INVALID' });
        await expect(books.findMany({ limt: 5 } as never)).rejects.toMatchObject({
          code: 'SVC_QUERY_UNSUPPORTED_PARAM',
        });
        expect(await books.patchOne(created.id, { pages: 13 })).toMatchObject({ pages: 13 });
        await books.deleteOne(created.id);
        await expect(books.findOne(created.id)).rejects.toMatchObject({ code: 'SVC_NOT_FOUND', status: 404 });
      } finally {
        await app.close();
      }
    });
  });

  describe('createSvc without Nest', () => {
    let dataSource: DataSource;
    beforeAll(async () => {
      dataSource = await openTestDataSource(db, 'e2e_binding_plain', BOOKSTORE_ENTITIES);
    });
    afterAll(() => dataSource.destroy());

    it('serves an entity through typeorm({ dataSource })', async () => {
      const books = createSvc({ infrastructure: typeorm({ dataSource }) }).createCrud<Book>(Book);
      const created = await books.createOne({ title: 'Plain' });
      expect(await books.findMany()).toMatchObject({ total: 1, items: [{ id: created.id }] });
    });

    it('serves an entity through createCrud(Entity, config, { infrastructure }), standalone', async () => {
      const books = createCrud<Book>(
        Book,
        { pagination: { defaultLimit: 5 } },
        { infrastructure: typeorm({ dataSource }) },
      );
      const created = await books.createOne({ title: 'Standalone' });
      expect(await books.findOne(created.id)).toMatchObject({ title: 'Standalone' });
      expect((await books.findMany()).limit).toBe(5);
    });

    it('refuses an entity with no adapter at all', () => {
      expect(() => createSvc().createCrud(Book)).toThrow(ConfigurationException);
    });
  });
});
