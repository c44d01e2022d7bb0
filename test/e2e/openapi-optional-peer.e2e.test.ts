/** `@nestjs/swagger` is an optional peer of @svc/nestjs: an app that does not have it boots and serves as before. */
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

jest.mock('@nestjs/swagger', () => {
  throw Object.assign(new Error("Cannot find module '@nestjs/swagger'"), { code: 'MODULE_NOT_FOUND' });
});

describe.each(TEST_DATABASES)('An app without @nestjs/swagger on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_openapi_no_swagger',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('books', Book)],
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('cannot load @nestjs/swagger here', async () => {
    await expect(import('@nestjs/swagger')).rejects.toThrow("Cannot find module '@nestjs/swagger'");
  });

  it('boots and serves its generated routes', async () => {
    await request(t.server).post('/books').send({ title: 'Dune', pages: 412 }).expect(201);
    const response = await request(t.server).get('/books').expect(200);
    expect(response.body.items).toHaveLength(1);
  });
});
