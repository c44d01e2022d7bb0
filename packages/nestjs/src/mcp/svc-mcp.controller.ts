/**
 * The controller of `SvcModule.forRoot({ mcp })`: the MCP agent tools over Streamable HTTP at `/mcp`, every call with
 * `{ request }` as its context, so what a guard puts on the request (`request.user`) reaches policy and `apply`.
 * `@svc/mcp` is an optional peer, loaded only when the switch is on.
 */
import { All, Controller, Inject, Logger, Req, Res, type OnApplicationBootstrap, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { requestStream, requestUrl, takeOver, type SvcHttpRequest, type SvcHttpResponse } from '../http-exchange';
import { requireOptionalPeer } from '../optional-peer';
import type * as SvcMcp from '@svc/mcp';
import { rememberResponse, routeGuardsGate } from '../route-guards';
import { SvcRegistry } from '../svc-registry';
import type { SvcMcpSwitch } from '../svc-module-options';

/** The optional peer this controller loads, by name: apps without the switch need not install it. */
const SVC_MCP_PACKAGE = '@svc/mcp';

/** `@svc/mcp`, required only when the switch is on (at bootstrap, never when the module is imported). */
function loadSvcMcp(): typeof SvcMcp {
  return requireOptionalPeer<typeof SvcMcp>(SVC_MCP_PACKAGE, {
    path: 'SvcModule.forRoot({ mcp })',
    message: 'needs @svc/mcp and @modelcontextprotocol/server: pnpm add @svc/mcp @modelcontextprotocol/server.',
  });
}

/** The stack of an error and of its cause, which is what an operator needs of a 5xx. */
function describeCause(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.stack}\nCaused by: ${cause.stack}` : (error.stack ?? error.message);
}

/** A controller class serving the tools at the switch's path. */
export function svcMcpController(options: SvcMcpSwitch): Type {
  @Controller(options.path ?? 'mcp')
  class SvcMcpController implements OnApplicationBootstrap {
    private handler?: SvcMcp.SvcMcpHttpHandler;
    private mcp?: typeof SvcMcp;
    private readonly logger = new Logger('SvcMcp');

    constructor(
      @Inject(SvcRegistry) private readonly registry: SvcRegistry,
      private readonly moduleRef: ModuleRef,
    ) {}

    /** Builds the tools once every service exists; a configuration problem stops the app from booting. */
    onApplicationBootstrap(): void {
      this.mcp = loadSvcMcp();
      this.handler = new this.mcp.SvcMcpHttpHandler({
        svc: this.registry.instance,
        name: options.name,
        version: options.version,
        allowedHosts: options.allowedHosts,
        allowedOrigins: options.allowedOrigins,
        exclude: options.exclude,
        readOnly: options.readOnly,
        tools: options.tools,
        gate: routeGuardsGate(this.registry, this.moduleRef),
        onServerError: (error, tool) =>
          this.logger.error(`The tool ${tool} failed.`, error instanceof Error ? describeCause(error) : String(error)),
      });
    }

    @All()
    async serve(@Req() request: SvcHttpRequest, @Res() response: SvcHttpResponse): Promise<void> {
      rememberResponse(request, response);
      const res = takeOver(response);
      try {
        await this.mcp!.serveNodeRequest(this.handler!, requestStream(request), res, {
          context: { request },
          parsedBody: request.body,
          url: requestUrl(request),
        });
      } catch (error) {
        // Tool failures are results; this is a fault of the serving itself, answered as a JSON-RPC error.
        this.logger.error('The MCP request failed.', error instanceof Error ? error.stack : String(error));
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  }
  return SvcMcpController;
}
