/**
 * The GraphQL endpoint of a Nest app (`SvcModule.forRoot({ graphql: true | { path, exclude } })`): the schema is
 * built from the app's served entities when the app boots, and every request is answered by `@svc/graphql`'s
 * graphql-http handler, with `{ request }` as the context, so a guard's `request.user` reaches policy and `apply`.
 */
import { All, Controller, Inject, Logger, Req, Res, type OnApplicationBootstrap, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { GraphQLSchema } from 'graphql';
import type { SvcGraphqlHandler } from '@svc/graphql';
import { SvcException } from '@svc/core';
import { readLimitedBody, writeExpressPostAnswer, type SvcHttpRequest } from '../http-exchange';
import { rememberResponse, routeGuardsGate } from '../route-guards';
import { SvcRegistry } from '../svc-registry';
import { loadSvcGraphql, type SvcGraphqlModule } from './load-svc-graphql';
import type { SvcGraphqlSwitch } from '../svc-module-options';

/** The `graphql` switch, resolved. */
export interface SvcGraphqlSettings extends SvcGraphqlSwitch {
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
    private graphql?: SvcGraphqlModule;
    private handler?: SvcGraphqlHandler<HostRequest>;
    /** The schema served, once the app has booted. */
    schema?: GraphQLSchema;

    constructor(
      @Inject(SvcRegistry) private readonly registry: SvcRegistry,
      private readonly moduleRef: ModuleRef,
    ) {}

    /** Built after every service exists; a configuration problem stops the app from booting. */
    onApplicationBootstrap(): void {
      const graphql = (this.graphql = loadSvcGraphql());
      this.schema = graphql.buildSvcSchema(this.registry.instance, {
        exclude: settings.exclude,
        gate: routeGuardsGate(this.registry, this.moduleRef),
        onError: (exception) => {
          if (exception.status >= 500) logger.error(exception.detail, (exception.cause as Error | undefined)?.stack);
        },
      });
      this.handler = graphql.createSvcGraphqlHandler<HostRequest>({
        schema: this.schema,
        context: (request) => ({ request: request.raw }),
        maxRootFields: settings.maxRootFields,
        maxFields: settings.maxFields,
        maxAliases: settings.maxAliases,
        maxCost: settings.maxCost,
        listSize: settings.listSize,
        maxDepth: settings.maxDepth,
      });
    }

    @All()
    async serve(@Req() request: HostRequest, @Res() reply: HostReply): Promise<void> {
      // Read before the handler runs, so that a body over the limit is the 413 it is, not an unparsable one; it is
      // answered as GraphQL answers Svc's errors (the problem in `extensions`).
      rememberResponse(request, reply);
      let sent: Record<string, unknown> | string;
      try {
        sent =
          request.body !== undefined ? (request.body as Record<string, unknown> | string) : await readBody(request);
      } catch (error) {
        if (!(error instanceof SvcException)) throw error;
        reply.status(error.status);
        reply.header('content-type', 'application/json; charset=utf-8');
        reply.send(JSON.stringify({ errors: [this.graphql!.toGraphqlError(error)] }));
        return;
      }
      const [body, init] = await this.handler!({
        method: request.method,
        url: request.originalUrl ?? request.url,
        headers: request.headers,
        body: () => sent,
        raw: request,
        context: undefined,
      });
      const headers = init.headers ?? {};
      if (writeExpressPostAnswer(request, reply, { status: init.status, headers, body: body ?? '' })) return;
      reply.status(init.status);
      for (const [name, value] of Object.entries(headers)) reply.header(name, value);
      reply.send(body ?? '');
    }
  }
  return SvcGraphqlController;
}

/**
 * The raw body, when no body parser read it (an app created with `bodyParser: false`, where Express leaves the stream
 * unread), within the limit of every JSON body. A host whose request is not a stream (Fastify) has parsed or refused
 * the body already, so there is none left to read.
 */
async function readBody(request: HostRequest): Promise<string> {
  if (!request.on) return '';
  const body = await readLimitedBody(
    request as unknown as SvcHttpRequest,
    'The GraphQL request body is over 100 kB, the limit of every JSON body. Send a smaller query.',
  );
  return body.toString('utf8');
}

/** The settings of a `graphql` switch that is on. */
export function graphqlSettingsOf(value: true | SvcGraphqlSwitch): SvcGraphqlSettings {
  const options = value === true ? {} : value;
  return { ...options, path: options.path ?? 'graphql', exclude: options.exclude ?? [] };
}
