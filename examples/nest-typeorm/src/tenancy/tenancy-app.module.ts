/**
 * The tenancy app: a project tracker that several tenants share, each seeing only its own rows, over REST, GraphQL,
 * the agent tools (MCP) and the task event stream. The tenant comes from the caller's verified bearer token; every
 * rule that follows from it lives in `tenant-scoped.ts`.
 */
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcModule } from '@svc/nestjs';
import { redisCacheStore, redisRealtime } from '@svc/redis';
import { sse } from '@svc/sse';
import { typeorm } from '@svc/typeorm';
import { jwtOptions } from '../access/auth-options';
import { JwtAuthGuard } from '../access/jwt-auth.guard';
import { ProjectsController } from './controllers/projects.controller';
import { TasksController } from './controllers/tasks.controller';
import { tenancyDatabaseOptions } from './tenancy-database-options';
import { TenancySeeder } from './tenancy-seeder';
import { tenantCacheKey } from './tenant-scoped';

export interface TenancyAppModuleOptions {
  /** A database URL (`':memory:'` for tests). @default the SQLite file tenancy.db next to package.json */
  readonly databaseUrl?: string;
  /** A Redis URL: several instances then share the result cache and the task events through it. @default none */
  readonly redisUrl?: string;
}

@Module({})
export class TenancyAppModule {
  static forRoot(options: TenancyAppModuleOptions = {}): DynamicModule {
    const redis = options.redisUrl ? { url: options.redisUrl } : undefined;
    const prefix = { keyPrefix: 'tracker:' };
    return {
      module: TenancyAppModule,
      imports: [
        TypeOrmModule.forRoot(tenancyDatabaseOptions(options.databaseUrl)),
        // The same bearer tokens as the bookstore; a tracker token also names its tenant (`pnpm token editor acme`).
        JwtModule.register(jwtOptions()),
        SvcModule.forRoot({
          infrastructure: typeorm(),
          // Cached reads (projects) are shared by the callers of one tenant only.
          cacheKey: tenantCacheKey,
          graphql: true,
          mcp: { name: 'tracker' },
          // GET /tasks/events: each subscriber receives the events of its own tenant's tasks.
          realtimeTransports: [sse(redis ? { log: redisRealtime(redis, prefix) } : {})],
          ...(redis ? { cacheStore: redisCacheStore(redis, prefix) } : {}),
        }),
      ],
      controllers: [ProjectsController, TasksController],
      providers: [{ provide: APP_GUARD, useClass: JwtAuthGuard }, TenancySeeder],
    };
  }
}
