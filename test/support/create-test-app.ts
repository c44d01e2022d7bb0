/** A Nest app over a fresh test database, with Svc controllers, for the shared HTTP suites. */
import { Controller, type INestApplication, type NestApplicationOptions, type Type } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test, type TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigurationException, type EntityConfig } from '@svc/core';
import { Svc, SvcModule, type SvcModuleOptions } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { testDataSourceOptions, type TestDatabase } from './test-databases';

/**
 * The HTTP platform of every app the shared suites boot: Express, or Fastify when `SVC_TEST_PLATFORM=fastify` (the
 * Fastify runs of the shared suites, under test/e2e/fastify/, set it before loading a suite).
 */
export const TEST_PLATFORM: 'express' | 'fastify' =
  process.env['SVC_TEST_PLATFORM'] === 'fastify' ? 'fastify' : 'express';

export interface TestApp {
  readonly app: INestApplication;
  readonly server: ReturnType<INestApplication['getHttpServer']>;
  readonly dataSource: DataSource;
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly db: TestDatabase;
  /** Short snake_case name: the database namespace of this suite. */
  readonly suite: string;
  readonly entities: Function[];
  readonly controllers: Type[];
  /** SvcModule.forRoot's options: Svc's own and the module's switches (graphql, mcp, problemDetails). */
  readonly svc?: SvcModuleOptions;
  readonly providers?: Type[];
  /** Extra DataSource options (a query-counting logger, ...). */
  readonly dataSource?: Partial<DataSourceOptions>;
}

export async function createTestApp(options: TestAppOptions): Promise<TestApp> {
  const dataSourceOptions = {
    ...(await testDataSourceOptions(options.db, options.suite, options.entities)),
    ...options.dataSource,
  } as DataSourceOptions;
  const moduleRef = await Test.createTestingModule({
    imports: [
      TypeOrmModule.forRoot(dataSourceOptions),
      SvcModule.forRoot({ infrastructure: typeorm(), ...options.svc }),
    ],
    controllers: options.controllers,
    providers: options.providers ?? [],
  }).compile();
  const app = await initPlatformApp(moduleRef, { logger: false });
  return {
    app,
    server: app.getHttpServer(),
    dataSource: app.get(DataSource),
    close: () => app.close(),
  };
}

/** Creates and initialises the Nest app of a compiled module on the suites' platform (Express, or Fastify). */
export async function initPlatformApp(
  moduleRef: TestingModule,
  options: NestApplicationOptions = {},
  /** What the app's main.ts does between creating the app and starting it (`app.useGlobalFilters(...)`). */
  beforeInit?: (app: INestApplication) => void,
): Promise<INestApplication> {
  const app =
    TEST_PLATFORM === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter({ bodyLimit: EXPRESS_BODY_LIMIT }), options)
      : moduleRef.createNestApplication(options);
  try {
    beforeInit?.(app);
    await app.init();
    if (TEST_PLATFORM === 'fastify')
      await (app.getHttpAdapter().getInstance() as { ready(): Promise<unknown> }).ready();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

/** Express's default JSON body limit; the Fastify apps take the same, so the suites expect one 413. */
const EXPRESS_BODY_LIMIT = 100 * 1024;

/** A controller class at `path` carrying `@Svc(entity, config)`; a fresh class each call. */
export function svcController(path: string, entity: Function, config: EntityConfig = {}): Type {
  @Svc(entity, config)
  @Controller(path)
  class GeneratedController {}
  Object.defineProperty(GeneratedController, 'name', { value: `${entity.name}${path.replace(/\W/g, '')}Controller` });
  return GeneratedController;
}

/** Boots an app that must fail with a ConfigurationException, and returns the error (closing the app if it booted). */
export async function bootstrapFailure(options: TestAppOptions): Promise<ConfigurationException> {
  const error = await createTestApp(options).then(
    async (app) => {
      await app.close();
      throw new Error('the app booted, but the configuration should have been refused');
    },
    (caught: unknown) => caught,
  );
  if (!(error instanceof ConfigurationException)) throw error;
  return error;
}
