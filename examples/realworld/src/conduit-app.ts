/** The Conduit app, made as `main.ts` serves it and as the tests boot it: Nest, the `/api` prefix, CORS. */
import type { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule, type AppModuleOptions } from './app.module';

export interface ConduitAppOptions extends AppModuleOptions {
  /** Nest's log levels; false for none. @default Nest's own */
  readonly logger?: LogLevel[] | false;
}

export async function createConduitApp(options: ConduitAppOptions = {}): Promise<INestApplication> {
  const { logger, ...module } = options;
  const app = await NestFactory.create(AppModule.forRoot(module), logger === undefined ? {} : { logger });
  app.setGlobalPrefix('api');
  app.enableCors();
  return app;
}
