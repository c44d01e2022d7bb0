/**
 * `@svc/graphql` and `@svc/mcp` are optional peers of @svc/nestjs: an app that switches a surface on without its
 * package installed stops at boot with a configuration error that says what to install; with the switch off it boots.
 */
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const missing = (name: string) => {
  throw Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' });
};
jest.mock('@svc/graphql', () => missing('@svc/graphql'));
jest.mock('@svc/mcp', () => missing('@svc/mcp'));

describe.each(TEST_DATABASES.filter((db) => db.name === 'sqlite'))('surfaces without their packages ($name)', (db) => {
  const app = (svc: Record<string, unknown>) => ({
    db,
    suite: 'e2e_surface_optional_peers',
    entities: BOOKSTORE_ENTITIES,
    controllers: [svcController('books', Book)],
    svc,
  });

  it('refuses graphql: true at boot, naming the packages to install', async () => {
    const error = await bootstrapFailure(app({ graphql: true }));
    expect(error.message).toContain('SvcModule.forRoot({ graphql })');
    expect(error.message).toContain('pnpm add @svc/graphql graphql graphql-http');
  });

  it('refuses mcp: true at boot, naming the packages to install', async () => {
    const error = await bootstrapFailure(app({ mcp: true }));
    expect(error.message).toContain('SvcModule.forRoot({ mcp })');
    expect(error.message).toContain('pnpm add @svc/mcp @modelcontextprotocol/server');
  });

  it('boots and serves with both switches off', async () => {
    const t = await createTestApp(app({}));
    try {
      await request(t.server).get('/books').expect(200);
    } finally {
      await t.close();
    }
  });
});
