/**
 * An app created with `bodyParser: false` leaves the GraphQL body to Svc, which reads it up to Express's default
 * 100 kB and refuses a longer one with 413 (the error shaped as GraphQL answers Svc's errors) before reading the rest.
 */
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcModule } from '@svc/nestjs';
import type { SvcOptions } from '@svc/core';
import { typeorm } from '@svc/typeorm';
import type { INestApplication } from '@nestjs/common';
import type { DataSourceOptions } from 'typeorm';
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Tag } from '../fixtures/bookstore-entities';
import { svcController } from '../support/create-test-app';
import { testDataSourceOptions, TEST_DATABASES } from '../support/test-databases';

const db = TEST_DATABASES[0]!;
const describeOnExpress = process.env['SVC_TEST_PLATFORM'] === 'fastify' ? describe.skip : describe;

describeOnExpress('GraphQL on an app without a body parser', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const dataSource = (await testDataSourceOptions(db, 'e2e_graphql_raw', BOOKSTORE_ENTITIES)) as DataSourceOptions;
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(dataSource),
        SvcModule.forRoot({ infrastructure: typeorm(), graphql: true } as SvcOptions),
      ],
      controllers: [svcController('tags', Tag)],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false, bodyParser: false });
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('reads the body itself and answers the query', async () => {
    const response = await request(app.getHttpServer())
      .post('/graphql')
      .set('content-type', 'application/json')
      .set('accept', 'application/json')
      .send(JSON.stringify({ query: '{ tags { total } }' }))
      .expect(200);
    expect(JSON.parse(response.text)).toEqual({ data: { tags: { total: 0 } } });
  });

  it('refuses a body over 100 kB with 413, SVC_PAYLOAD_TOO_LARGE in the error extensions', async () => {
    const padding = ' '.repeat(200 * 1024);
    const response = await request(app.getHttpServer())
      .post('/graphql')
      .set('content-type', 'application/json')
      .set('accept', 'application/json')
      .send(`{ "query": "{ tags { total } }"${padding} }`);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.text)).toMatchObject({
      errors: [{ extensions: { code: 'SVC_PAYLOAD_TOO_LARGE', problem: { status: 413 } } }],
    });
  });
});
