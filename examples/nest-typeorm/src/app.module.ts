/**
 * The bookstore app: TypeORM, Svc with the bookstore's policy, one `@Svc` controller per entity, the guard that
 * verifies the caller's bearer token, the first-start seeder, and the readiness check at `/health`.
 */
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcModule } from '@svc/nestjs';
import { sse } from '@svc/sse';
import { typeorm } from '@svc/typeorm';
import { editorsWrite } from './access/editors-write-policy';
import { callerOf } from './access/caller';
import { jwtOptions } from './access/auth-options';
import { JwtAuthGuard } from './access/jwt-auth.guard';
import { BookstoreSeeder } from './bookstore-seeder';
import { AuthorsController } from './controllers/authors.controller';
import { BooksController } from './controllers/books.controller';
import { ReviewsController } from './controllers/reviews.controller';
import { TagsController } from './controllers/tags.controller';
import { databaseOptions } from './database-options';
import { HealthModule } from './health/health.module';
import { LivePageController } from './live/live-page.controller';
import { createScaleOut, sharedCache, sharedEvents } from './redis-scale-out';

export interface AppModuleOptions {
  /** A database URL as `DATABASE_URL` takes it (`':memory:'` for tests). @default process.env.DATABASE_URL */
  readonly databaseUrl?: string;
  /**
   * A Redis URL: every instance then shares the result cache and realtime events through it; without one, both stay in
   * the process. @default process.env.REDIS_URL
   */
  readonly redisUrl?: string;
  /** The secret tokens are signed with (HS256). @default process.env.JWT_SECRET, else the development secret */
  readonly jwtSecret?: string;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions = {}): DynamicModule {
    // Made once: Svc shares through these Redis connections, and /health asks the same ones.
    const scaleOut = createScaleOut(options.redisUrl ?? process.env['REDIS_URL']);
    return {
      module: AppModule,
      imports: [
        TypeOrmModule.forRoot(databaseOptions(options.databaseUrl ?? process.env['DATABASE_URL'])),
        // Bearer tokens: JwtAuthGuard verifies them on every request, on every surface.
        JwtModule.register(jwtOptions(options.jwtSecret)),
        // The global policy applies to every entity that has none of its own: reads are open, writes need an editor.
        // GraphQL at /graphql; reviews are paged by cursor, which GraphQL cannot page, so they stay REST-only.
        SvcModule.forRoot({
          infrastructure: typeorm(),
          pagination: { maxLimit: 100 },
          policy: editorsWrite,
          // Cached reads (tags) are shared by callers of one role only: what a policy lets a role see stays its own.
          cacheKey: (context) => callerOf(context)?.role ?? 'anonymous',
          graphql: { exclude: ['Review'] },
          // The agent tools at /mcp (Streamable HTTP); they page by limit and offset, so reviews stay out too.
          mcp: { name: 'bookstore', exclude: ['Review'] },
          // Realtime events over Server-Sent Events: books turn them on (GET /books/events); the page at / uses them.
          // With REDIS_URL, the instances share events and cached reads through Redis (README, "Several instances").
          realtimeTransports: [sse(sharedEvents(scaleOut))],
          ...sharedCache(scaleOut),
        }),
        // GET /health: the readiness check of the database and, with REDIS_URL, of Redis.
        HealthModule.forRoot(scaleOut),
      ],
      controllers: [AuthorsController, BooksController, TagsController, ReviewsController, LivePageController],
      providers: [{ provide: APP_GUARD, useClass: JwtAuthGuard }, BookstoreSeeder],
    };
  }
}
