/** The bookstore app: TypeORM, Svc, one `@Svc` controller per entity, and the first-start seeder. */
import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import { BookstoreSeeder } from './bookstore-seeder';
import { AuthorsController } from './controllers/authors.controller';
import { BooksController } from './controllers/books.controller';
import { ReviewsController } from './controllers/reviews.controller';
import { TagsController } from './controllers/tags.controller';
import { databaseOptions } from './database-options';

export interface AppModuleOptions {
  /** A database URL as `DATABASE_URL` takes it (`':memory:'` for tests). @default process.env.DATABASE_URL */
  readonly databaseUrl?: string;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        TypeOrmModule.forRoot(databaseOptions(options.databaseUrl ?? process.env['DATABASE_URL'])),
        SvcModule.forRoot({ infrastructure: typeorm(), pagination: { maxLimit: 100 } }),
      ],
      controllers: [AuthorsController, BooksController, TagsController, ReviewsController],
      providers: [BookstoreSeeder],
    };
  }
}
