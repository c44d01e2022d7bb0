/**
 * JwtAuthGuard on every surface: a route needs a valid bearer token unless it is `@Public()`; a token that fails is a
 * 401 with a challenge everywhere, public routes included; an event stream takes its token as `access_token`.
 */
import type { INestApplication } from '@nestjs/common';
import { JwtService, type JwtSignOptions } from '@nestjs/jwt';
import { EventSource } from 'eventsource';
import request from 'supertest';
import { expectProblem } from './expect-problem';
import { bearer, JWT_SECRET, startApp, tokenFor } from './test-app';

/** A token that claims to be an editor's and is not signed (`alg: none`): what a forger sends. */
function unsignedToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + 600;
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'forger', role: 'editor', exp })}.`;
}

/** A token with exactly these claims, signed with the app's secret. */
function signed(claims: object, options?: JwtSignOptions): string {
  return new JwtService({ secret: JWT_SECRET }).sign(claims, options);
}

describe('authentication', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp('authentication_e2e');
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('without a token', () => {
    it('refuses a route that is not public with 401 and a bearer challenge', async () => {
      const response = await request(app.getHttpServer()).get('/orders');
      expectProblem(response, 401, 'SVC_HTTP_ERROR');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="bookshop"');
    });

    it('lets a public route through as anonymous, and the policy decides', async () => {
      const server = app.getHttpServer();
      await request(server).get('/books').expect(200);
      expectProblem(await request(server).post('/books').send({ title: 'Ubik' }), 403, 'SVC_FORBIDDEN');
    });

    it("refuses Svc's own GraphQL and agent-tool routes, which are not public", async () => {
      const server = app.getHttpServer();
      await request(server).post('/graphql').send({ query: '{ books { total } }' }).expect(401);
      await request(server).post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(401);
    });
  });

  describe('with a token that fails', () => {
    /** What is wrong with it, the Authorization header, and what the 401 says. */
    const refused: [string, () => string, RegExp][] = [
      ['expired', () => `Bearer ${tokenFor('editor', { expiresIn: -60 })}`, /has expired\. Sign in again/],
      ['signed with another secret', () => `Bearer ${tokenFor('editor', { secret: 'other' })}`, /is not valid/],
      ['not signed at all', () => `Bearer ${unsignedToken()}`, /is not valid/],
      ['malformed', () => 'Bearer not.a.token', /is not valid/],
      ['naming an unknown role', () => `Bearer ${signed({ sub: 'x', role: 'admin' }, { expiresIn: 60 })}`, /no role/],
      ['without an expiry', () => `Bearer ${signed({ sub: 'x', role: 'editor' })}`, /no expiry/],
      ['in another scheme', () => `Basic ${Buffer.from('editor:pw').toString('base64')}`, /must be "Bearer <token>"/],
    ];

    it.each(refused)('refuses a token %s with 401 invalid_token, even on a public route', async (_, header, says) => {
      const response = await request(app.getHttpServer()).get('/books').set('authorization', header());
      const problem = expectProblem(response, 401, 'SVC_HTTP_ERROR');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="bookshop", error="invalid_token"');
      expect(problem.detail).toMatch(says);
    });
  });

  describe('the event stream', () => {
    /** Opens GET /orders/events as a browser's EventSource does, and resolves with the first created order's title. */
    function firstCreated(url: URL): Promise<string> {
      return new Promise((resolve, reject) => {
        const source = new EventSource(url);
        source.addEventListener('created', (message) => {
          source.close();
          resolve((JSON.parse(message.data) as { item: { title: string } }).item.title);
        });
        source.onerror = (error) => {
          source.close();
          reject(error);
        };
        // Once it is open, south places an order, then north: only north's is for this caller.
        source.onopen = async () => {
          const order = (tenant: string, title: string) =>
            request(app.getHttpServer()).post('/orders').set(bearer('reader', { tenant })).send({ title });
          await order('south', 'Solaris');
          await order('north', 'Dune');
        };
      });
    }

    it("takes the token as access_token, and delivers the caller's own shop's events", async () => {
      const url = new URL('/orders/events', await app.getUrl());
      url.searchParams.set('access_token', tokenFor('reader', { tenant: 'north' }));
      await expect(firstCreated(url)).resolves.toBe('Dune');
    });

    it('refuses a stream whose access_token fails, with 401, before it opens', async () => {
      const response = await request(app.getHttpServer())
        .get('/orders/events')
        .query({ access_token: tokenFor('reader', { tenant: 'north', expiresIn: -60 }) })
        .set('accept', 'text/event-stream');
      expectProblem(response, 401, 'SVC_HTTP_ERROR');
    });

    it('reads access_token on an event stream only', async () => {
      const response = await request(app.getHttpServer())
        .get('/orders')
        .query({ access_token: tokenFor('reader', { tenant: 'north' }) });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="bookshop"');
    });
  });
});
