/**
 * What only Fastify makes Svc do differently: its own body parsers (JSON Patch gets one), its own refusals of a media
 * type or an empty JSON body (answered as Svc's problems), and Fastify's reply instead of Express's response.
 */
import './use-fastify';
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES } from '../../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../../support/create-test-app';
import { TEST_DATABASES } from '../../support/test-databases';
import { expectProblem } from '../support/e2e-http';

describe.each(TEST_DATABASES.filter((db) => db.name === 'sqlite'))('Svc on the Fastify platform ($name)', (db) => {
  let t: TestApp;
  let id: number;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_fastify_platform',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('books', Book, { relations: { tags: { write: { strategy: 'jsonPatch' } } } })],
    });
    id = (await t.dataSource.getRepository(Book).save({ title: 'Fast', pages: 10 })).id;
  });
  afterAll(() => t.close());

  it('is served by Fastify', () => {
    expect(t.app.getHttpAdapter().getType()).toBe('fastify');
  });

  it('reads a JSON Patch body (application/json-patch+json) on patchOne', async () => {
    const res = await request(t.server)
      .patch(`/books/${id}`)
      .set('Content-Type', 'application/json-patch+json')
      .send(JSON.stringify([{ op: 'replace', path: '/pages', value: 11 }]))
      .expect(200);
    expect(res.body).toMatchObject({ id, pages: 11 });
  });

  it('answers a malformed JSON Patch as SVC_MALFORMED_REQUEST', async () => {
    const res = await request(t.server)
      .patch(`/books/${id}`)
      .set('Content-Type', 'application/json-patch+json')
      .send('[{"op":');
    expectProblem(res, 400, 'SVC_MALFORMED_REQUEST');
  });

  it('answers a media type Fastify has no parser for as SVC_UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await request(t.server).post('/books').set('Content-Type', 'application/xml').send('<book/>');
    expectProblem(res, 415, 'SVC_UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers an empty JSON body as SVC_MALFORMED_REQUEST', async () => {
    const res = await request(t.server).post('/books').set('Content-Type', 'application/json').send('');
    expectProblem(res, 400, 'SVC_MALFORMED_REQUEST');
  });

  it('answers OPTIONS and HEAD on generated paths', async () => {
    const options = await request(t.server).options(`/books/${id}`).expect(204);
    expect(options.headers['allow']).toContain('PATCH');
    const head = await request(t.server).head(`/books/${id}`).expect(200);
    expect(head.headers['etag']).toMatch(/^"/);
  });
});
