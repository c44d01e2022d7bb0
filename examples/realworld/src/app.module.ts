/**
 * The Conduit app: TypeORM on the database `databaseOptions` names, Svc (its errors in Conduit's shape), the token
 * guard on every request, and the controllers of `conduit-controllers.ts`.
 */
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import { jwtOptions } from './auth/auth-options';
import { AuthRequired } from './auth/auth-required.guard';
import { TokenGuard } from './auth/token.guard';
import { CONDUIT_CONTROLLERS } from './conduit-controllers';
import { conduitErrors } from './conduit-errors';
import { databaseOptions, type DatabaseLocation } from './database-options';
import { CONDUIT_ENTITIES } from './entities';

export interface AppModuleOptions {
  /** Where the data lives. @default DATABASE_URL and DATABASE_SCHEMA, else the SQLite file */
  readonly database?: DatabaseLocation;
  /** The secret tokens are signed with (HS256). @default process.env.JWT_SECRET, else the development secret */
  readonly jwtSecret?: string;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        TypeOrmModule.forRoot(databaseOptions(options.database)),
        TypeOrmModule.forFeature(CONDUIT_ENTITIES),
        JwtModule.register(jwtOptions(options.jwtSecret)),
        // Every error of the app (problemDetails 'all'), the users routes' too, answers in Conduit's shape.
        SvcModule.forRoot({ infrastructure: typeorm(), problemDetails: 'all', errors: { format: conduitErrors } }),
      ],
      controllers: CONDUIT_CONTROLLERS,
      providers: [{ provide: APP_GUARD, useClass: TokenGuard }, AuthRequired],
    };
  }
}
