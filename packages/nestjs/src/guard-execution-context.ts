/**
 * The execution context Svc hands a controller's guards when GraphQL or an agent tool runs one of its operations: an
 * HTTP context naming the Svc controller and the operation route's handler, over the request that carried the call.
 * Nest's own `ExecutionContextHost` is internal API (Nest 12 exports it from `@nestjs/core/internal` only), so this
 * class implements the public `ExecutionContext` interface itself.
 */
import type { ContextType, ExecutionContext, Type } from '@nestjs/common';

type HttpArgumentsHost = ReturnType<ExecutionContext['switchToHttp']>;
type RpcArgumentsHost = ReturnType<ExecutionContext['switchToRpc']>;
type WsArgumentsHost = ReturnType<ExecutionContext['switchToWs']>;

export class GuardExecutionContext implements ExecutionContext {
  constructor(
    private readonly args: [request: unknown, response: unknown],
    private readonly controller: Type,
    private readonly handler: Function,
  ) {}

  getClass<T = unknown>(): Type<T> {
    return this.controller as Type<T>;
  }

  getHandler(): Function {
    return this.handler;
  }

  getArgs<T extends unknown[] = unknown[]>(): T {
    return this.args as unknown as T;
  }

  getArgByIndex<T = unknown>(index: number): T {
    return this.args[index] as T;
  }

  getType<TContext extends string = ContextType>(): TContext {
    return 'http' as TContext;
  }

  switchToHttp(): HttpArgumentsHost {
    const [request, response] = this.args;
    return {
      getRequest: <T>() => request as T,
      getResponse: <T>() => response as T,
      getNext: <T>() => undefined as T,
    };
  }

  switchToRpc(): RpcArgumentsHost {
    return { getData: <T>() => this.args[0] as T, getContext: <T>() => this.args[1] as T };
  }

  switchToWs(): WsArgumentsHost {
    const [client, data] = this.args;
    return {
      getClient: <T>() => client as T,
      getData: <T>() => data as T,
      getPattern: () => this.args[this.args.length - 1] as string,
    };
  }
}
