/** Public API of @svc/typeorm. */
export { typeorm } from './typeorm-infrastructure';
export type { TypeOrmInfrastructure, TypeOrmInfrastructureOptions } from './typeorm-infrastructure';
export { TypeOrmRepositoryAdapter } from './typeorm-repository-adapter';
export { readEntityMetadata } from './read-entity-metadata';
export { TypeOrmSession } from './typeorm-session';
export type { DatabaseDialect } from './database-dialect';
export type { ReplicaOptions, ReplicaSkipReason } from './replica-options';
export { READ_AFTER_HEADER } from './replica-options';
