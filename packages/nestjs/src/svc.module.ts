/** `SvcModule.forRoot` / `forRootAsync`: the global options, the registry, `@InjectSvc` providers, the problem filter. */
import { Module, type DynamicModule, type ModuleMetadata, type Provider } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import type { SvcService } from '@svc/core';
import type { SvcModuleOptions } from './svc-module-options';
import { ProblemDetailsFilter } from './problem-details.filter';
import { declaredEntities } from './svc-declarations';
import { SvcRegistry } from './svc-registry';
import { SVC_OPTIONS, svcToken } from './svc.constants';

export interface SvcModuleAsyncOptions {
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: unknown[];
  readonly useFactory: (...args: never[]) => SvcModuleOptions | Promise<SvcModuleOptions>;
}

@Module({})
export class SvcModule {
  static forRoot(options: SvcModuleOptions = {}): DynamicModule {
    return SvcModule.build([{ provide: SVC_OPTIONS, useValue: options }], []);
  }

  static forRootAsync(options: SvcModuleAsyncOptions): DynamicModule {
    const provider: Provider = {
      provide: SVC_OPTIONS,
      useFactory: options.useFactory,
      inject: (options.inject ?? []) as never[],
    };
    return SvcModule.build([provider], options.imports ?? []);
  }

  private static build(optionProviders: Provider[], imports: NonNullable<ModuleMetadata['imports']>): DynamicModule {
    const services = declaredEntities().map((entity): Provider => ({
      provide: svcToken(entity),
      useFactory: (registry: SvcRegistry) => lazyService(registry, entity),
      inject: [SvcRegistry],
    }));
    return {
      module: SvcModule,
      global: true,
      imports: [DiscoveryModule, ...imports],
      providers: [
        ...optionProviders,
        SvcRegistry,
        ...services,
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
      ],
      exports: [SvcRegistry, SVC_OPTIONS, ...services],
    };
  }
}

/** Services are built when the module initialises, after injection; the proxy resolves on first use. */
function lazyService(registry: SvcRegistry, entity: Function): SvcService {
  return new Proxy({} as SvcService, {
    get(_target, property) {
      // Nest probes providers for lifecycle hooks (and promises for `then`) before the services exist.
      if (
        typeof property === 'symbol' ||
        property === 'then' ||
        property.startsWith('on') ||
        property.startsWith('before')
      ) {
        return undefined;
      }
      const service = registry.serviceFor(entity) as unknown as Record<PropertyKey, unknown>;
      const value = service[property];
      return typeof value === 'function' ? (value as Function).bind(service) : value;
    },
  });
}
