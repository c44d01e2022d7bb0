/** `typeorm()`: the SvcInfrastructure that hands out one TypeOrmRepositoryAdapter per entity class. */
import type { InfrastructureResolver, PlatformPackage, RepositoryAdapter, SvcInfrastructure } from '@svc/core/spi';
import { ConfigurationException } from '@svc/core';
import { DataSource, InstanceChecker } from 'typeorm';
import { TypeOrmRepositoryAdapter } from './typeorm-repository-adapter';
import { typeormPlatform } from './typeorm-platform';
import { guardConnectionErrors } from './connection-error-guard';
import { tallyStatements } from './statement-tally';
import { resolveReplicaOptions, type ReplicaOptions } from './replica-options';
import { replicaRouterOf } from './replica-router';

export interface TypeOrmInfrastructureOptions {
  /**
   * The DataSource to use. Omitted: resolved at bind time from the framework, as the `DataSource` provider that
   * `@nestjs/typeorm` registers.
   * @default undefined
   */
  readonly dataSource?: DataSource;
  /**
   * Reads on replicas, when the DataSource has `replication: { master, slaves }`: how long a caller's reads wait for
   * its own writes to be replayed, and who the caller is. Without `replication` nothing is routed.
   * @default { maxLagMs: 2000 }
   */
  readonly replicas?: ReplicaOptions;
}

export interface TypeOrmInfrastructure extends SvcInfrastructure {
  readonly name: 'typeorm';
  readonly platform: readonly PlatformPackage[];
}

/** Svc persistence through TypeORM: `typeorm()` in Nest with @nestjs/typeorm, `typeorm({ dataSource })` elsewhere. */
export function typeorm(options: TypeOrmInfrastructureOptions = {}): TypeOrmInfrastructure {
  let dataSource = options.dataSource;
  const replicas = resolveReplicaOptions(options.replicas);
  const adapters = new Map<Function, TypeOrmRepositoryAdapter>();
  return {
    name: 'typeorm',
    platform: [typeormPlatform()],
    bind(resolver: InfrastructureResolver): void {
      if (dataSource) return;
      dataSource = resolveDataSource(resolver);
    },
    createAdapter(target: Function): RepositoryAdapter {
      const known = adapters.get(target);
      if (known) return known;
      if (!dataSource) throw missingDataSource(target);
      if (!dataSource.isInitialized) throw uninitializedDataSource(target);
      guardConnectionErrors(dataSource);
      tallyStatements(dataSource);
      replicaRouterOf(dataSource, replicas);
      const adapter = new TypeOrmRepositoryAdapter(dataSource, target);
      adapters.set(target, adapter);
      return adapter;
    },
  };
}

function resolveDataSource(resolver: InfrastructureResolver): DataSource {
  let resolved: unknown;
  try {
    resolved = resolver.resolve(DataSource);
  } catch (error) {
    throw new ConfigurationException({
      path: 'infrastructure',
      message:
        `typeorm() found no TypeORM DataSource to use (${error instanceof Error ? error.message : String(error)}). ` +
        'Import TypeOrmModule.forRoot(...) in the same application, or pass typeorm({ dataSource }).',
    });
  }
  if (!InstanceChecker.isDataSource(resolved)) {
    throw new ConfigurationException({
      path: 'infrastructure',
      message:
        'typeorm() resolved the DataSource token to something that is not a TypeORM DataSource. ' +
        'Import TypeOrmModule.forRoot(...), or pass typeorm({ dataSource }).',
    });
  }
  return resolved;
}

function missingDataSource(target: Function): ConfigurationException {
  return new ConfigurationException({
    entity: target.name,
    path: 'infrastructure',
    message:
      'typeorm() has no DataSource yet. Pass typeorm({ dataSource }) when using Svc without Nest, ' +
      'or register SvcModule with TypeOrmModule.forRoot(...) so the DataSource is bound before adapters are created.',
  });
}

function uninitializedDataSource(target: Function): ConfigurationException {
  return new ConfigurationException({
    entity: target.name,
    path: 'infrastructure',
    message: 'the TypeORM DataSource is not initialized. Await dataSource.initialize() before creating Svc services.',
  });
}
