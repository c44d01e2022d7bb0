/** `SvcModule.forRoot` / `forRootAsync`: the global options, the registry, `@InjectSvc` providers, the problem filter. */
import {
  Inject,
  Module,
  type DynamicModule,
  type ModuleMetadata,
  type NestModule,
  type Provider,
  type Type,
} from '@nestjs/common';
import { ConfigurationException } from '@svc/core';
import { requireSupportedPlatform } from '@svc/core/spi';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import type { SvcService } from '@svc/core';
import type { SvcModuleOptions, SvcSurfaceSwitches } from './svc-module-options';
import { surfaceControllers } from './surface-controllers';
import { ProblemDetailsFilter } from './problem-details.filter';
import { declaredEntities } from './svc-declarations';
import { SvcRegistry } from './svc-registry';
import { mapServedRoutes } from './svc-routes';
import { SVC_OPTIONS, svcToken } from './svc.constants';
import { nestPlatform } from './nest-platform';

/** A provider that makes the module's options (`useClass` / `useExisting`), as `TypeOrmOptionsFactory` does. */
export interface SvcOptionsFactory {
  createSvcOptions(): SvcModuleOptions | Promise<SvcModuleOptions>;
}

/**
 * Exactly one of `useFactory` (with `inject`), `useClass` or `useExisting`; the surface switches (`graphql`, `mcp`)
 * beside it, since the module's controllers are known before the options are made.
 */
export interface SvcModuleAsyncOptions extends SvcSurfaceSwitches {
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: unknown[];
  readonly useFactory?: (...args: never[]) => SvcModuleOptions | Promise<SvcModuleOptions>;
  /** A class the module instantiates (with its dependencies) to make the options. */
  readonly useClass?: Type<SvcOptionsFactory>;
  /** A provider of the app (reachable through `imports`) that makes the options. */
  readonly useExisting?: Type<SvcOptionsFactory>;
}

@Module({})
export class SvcModule implements NestModule {
  constructor(@Inject(SvcRegistry) private readonly registry: SvcRegistry) {}

  /**
   * Nest runs this before it maps the app's routes: the services resolve here, and each controller keeps mapped only
   * the routes its entity serves. An app without HTTP never runs it, and resolves them at the registry's onModuleInit.
   */
  async configure(): Promise<void> {
    await this.registry.resolve();
    for (const { controller } of this.registry.controllers()) mapServedRoutes(this.registry, controller);
  }

  static forRoot(options: SvcModuleOptions = {}): DynamicModule {
    // The platform gate, as the module is declared: before any provider (TypeORM's DataSource among them) is built.
    // forRootAsync's infrastructure is known only at boot, where SvcRegistry runs the same check.
    requireSupportedPlatform([...nestPlatform(), ...(options.infrastructure?.platform ?? [])]);
    return SvcModule.build([{ provide: SVC_OPTIONS, useValue: options }], [], options);
  }

  static forRootAsync(options: SvcModuleAsyncOptions): DynamicModule {
    return SvcModule.build(asyncProviders(options), options.imports ?? [], options);
  }

  private static build(
    optionProviders: Provider[],
    imports: NonNullable<ModuleMetadata['imports']>,
    switches: SvcSurfaceSwitches,
  ): DynamicModule {
    const services = declaredEntities().map((entity): Provider => ({
      provide: svcToken(entity),
      useFactory: (registry: SvcRegistry) => lazyService(registry, entity),
      inject: [SvcRegistry],
    }));
    return {
      module: SvcModule,
      global: true,
      imports: [DiscoveryModule, ...imports],
      controllers: surfaceControllers(switches),
      providers: [
        ...optionProviders,
        SvcRegistry,
        ...services,
        ProblemDetailsFilter,
        { provide: APP_FILTER, useExisting: ProblemDetailsFilter },
      ],
      exports: [SvcRegistry, SVC_OPTIONS, ...services],
    };
  }
}

function asyncProviders(options: SvcModuleAsyncOptions): Provider[] {
  const ways = [options.useFactory, options.useClass, options.useExisting].filter((way) => way !== undefined);
  if (ways.length !== 1)
    throw new ConfigurationException({
      path: 'SvcModule.forRootAsync',
      message: 'takes exactly one of useFactory, useClass or useExisting.',
    });
  if (options.useFactory)
    return [{ provide: SVC_OPTIONS, useFactory: options.useFactory, inject: (options.inject ?? []) as never[] }];
  const factory = (options.useClass ?? options.useExisting)!;
  const fromFactory: Provider = {
    provide: SVC_OPTIONS,
    useFactory: (made: SvcOptionsFactory) => made.createSvcOptions(),
    inject: [factory],
  };
  return options.useClass ? [{ provide: factory, useClass: factory }, fromFactory] : [fromFactory];
}

/** Services are built when the module initialises, after injection; the proxy resolves on first use. */
function lazyService(registry: SvcRegistry, entity: Function): SvcService {
  return new Proxy({} as SvcService, {
    get(_target, property) {
      // Nest probes providers for lifecycle hooks, promises for `then` and classes for `constructor` before the
      // services exist; those are not service members.
      if (
        typeof property === 'symbol' ||
        property === 'then' ||
        property === 'constructor' ||
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
