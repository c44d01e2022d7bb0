/**
 * The GraphQL endpoint of a Nest app (`SvcModule.forRoot({ graphql: true | { path, exclude } })`): the schema is
 * built from the app's served entities when the app boots, and every request is answered by `@svc/graphql`'s
 * graphql-http handler, with `{ request }` as the context, so a guard's `request.user` reaches policy and `apply`.
 */
import { All, Controller, Inject, Logger, Req, Res, type OnApplicationBootstrap, type Type } from '@nestjs/common';
import type { GraphQLSchema } from 'graphql';
import type { SvcGraphqlHandler } from '@svc/graphql';
import { SvcRegistry } from '../svc-registry';
import { loadSvcGraphql } from './load-svc-graphql';

/** The `graphql` switch, resolved. */
export interface SvcGraphqlSettings {
  readonly path: string;
  readonly exclude: readonly string[];
}

/** The request and reply members used here, which Express and Fastify both have. */
interface HostRequest {
  readonly method: string;
  readonly url: string;
  readonly originalUrl?: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body?: unknown;
  setEncoding?(encoding: string): void;
  on?(event: string, listener: (chunk?: unknown) => void): void;
}

interface HostReply {
  status(code: number): HostReply;
  header(name: string, value: string): HostReply;
  send(body?: string): unknown;
}

const logger = new Logger('SvcGraphql');

/** A controller class at `settings.path`; a fresh class per app module, since the path is the app's choice. */
export function svcGraphqlController(settings: SvcGraphqlSettings): Type {
  @Controller(settings.path)
  class SvcGraphqlController implements OnApplicationBootstrap {
    private handler?: SvcGraphqlHandler<HostRequest>;
    /** The schema served, once the app has booted. */
    schema?: GraphQLSchema;

    constructor(@Inject(SvcRegistry) private readonly registry: SvcRegistry) {}

    /** Built after every service exists; a configuration problem stops the app from booting. */
    onApplicationBootstrap(): void {
      const graphql = loadSvcGraphql();
      this.schema = graphql.buildSvcSchema(this.registry.instance, {
        exclude: settings.exclude,
        onError: (exception) => {
          if (exception.status >= 500) logger.error(exception.detail, (exception.cause as Error | undefined)?.stack);
        },
      });
      this.handler = graphql.createSvcGraphqlHandler<HostRequest>({
        schema: this.schema,
        context: (request) => ({ request: request.raw }),
      });
    }

    @All()
    async serve(@Req() request: HostRequest, @Res() reply: HostReply): Promise<void> {
      const [body, init] = await this.handler!({
        method: request.method,
        url: request.originalUrl ?? request.url,
        headers: request.headers,
        body: () =>
          request.body !== undefined ? (request.body as Record<string, unknown> | string) : readBody(request),
        raw: request,
        context: undefined,
      });
      reply.status(init.status);
      for (const [name, value] of Object.entries(init.headers ?? {})) reply.header(name, value);
      reply.send(body ?? '');
    }
  }
  return SvcGraphqlController;
}

/**
 * The raw body, for a media type the host's body parser left alone (Express leaves the stream unread). A host whose
 * request is not a stream (Fastify) has parsed or refused the body already, so there is none left to read.
 */
function readBody(request: HostRequest): Promise<string> {
  const on = request.on?.bind(request);
  if (!on) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding?.('utf8');
    on('data', (chunk) => (text += String(chunk)));
    on('end', () => resolve(text));
    on('error', reject);
  });
}

/** The settings of a `graphql` switch that is on. */
export function graphqlSettingsOf(
  value: true | { readonly path?: string; readonly exclude?: readonly string[] },
): SvcGraphqlSettings {
  const options = value === true ? {} : value;
  return { path: options.path ?? 'graphql', exclude: options.exclude ?? [] };
}
