/** The bookshop: TypeORM, the JWT guard on every route, and Svc serving REST, GraphQL, the agent tools and events. */
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import { SvcModule } from '@svc/nestjs';
import { sse } from '@svc/sse';
import { typeorm } from '@svc/typeorm';
import { Book } from './book.entity';
import { BooksController } from './books.controller';
import { callerOf } from './caller';
import { JwtAuthGuard } from './jwt-auth.guard';
import { Order } from './order.entity';
import { OrdersController } from './orders.controller';

export interface AppOptions {
  /** Where the data lives: main.ts passes the real database, a test its own. */
  readonly database: TypeOrmModuleOptions;
  /** The secret tokens are signed with (HS256). */
  readonly jwtSecret: string;
}

@Module({})
export class AppModule {
  static forRoot({ database, jwtSecret }: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        TypeOrmModule.forRoot({ ...database, entities: [Book, Order] }),
        JwtModule.register({
          secret: jwtSecret,
          // One algorithm, named: a token signed any other way (or not at all, `alg: none`) is refused.
          signOptions: { algorithm: 'HS256', expiresIn: '1h' },
          verifyOptions: { algorithms: ['HS256'] },
        }),
        SvcModule.forRoot({
          infrastructure: typeorm(),
          // Anyone may read; every other operation needs an editor. Orders have a policy of their own.
          policy: ({ operation, context }) => operation.startsWith('find') || callerOf(context)?.role === 'editor',
          graphql: true,
          mcp: { name: 'bookshop' },
          realtimeTransports: [sse()],
        }),
      ],
      controllers: [BooksController, OrdersController],
      // Global: it runs before every route, Svc's included.
      providers: [{ provide: APP_GUARD, useClass: JwtAuthGuard }],
    };
  }
}
