/**
 * TypeORM's metadata classes as types, reached through its root export: its package exports no subpaths for them, so
 * emitted declarations that imported `typeorm/metadata/...` would not resolve for every consumer's module settings.
 */
import type { EntityMetadata } from 'typeorm';

export type OrmEntity = EntityMetadata;
export type OrmColumn = EntityMetadata['columns'][number];
export type OrmRelation = EntityMetadata['relations'][number];
