/** A Nest app over a fresh test database, with Svc controllers, for the shared HTTP suites. */
import { Controller, type INestApplication, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigurationException, type EntityConfig, type SvcOptions } from '@svc/core';
import { Svc, SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { testDataSourceOptions, type TestDatabase } from './test-databases';

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
  readonly svc?: SvcOptions;
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
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return {
    app,
    server: app.getHttpServer(),
    dataSource: app.get(DataSource),
    close: () => app.close(),
  };
}

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
