/**
 * The contract of `context.repository`: the entity's adapter port with the session and the view filled in for a
 * handler. The engine implements it (scope, soft delete and the request's transaction held in every method).
 */
import type { EntityKey } from './entity-metadata';
import type { FindManyArgs, FindOneArgs, RepositoryAdapter, Row, UpdateArgs, WriteArgs } from './repository-adapter';

type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** The adapter port with the session and the view filled in for the handler. */
export interface ScopedRepository extends RepositoryAdapter {
  findMany(args: Optional<FindManyArgs, 'view' | 'sort' | 'count'>): ReturnType<RepositoryAdapter['findMany']>;
  findOne(args: Optional<FindOneArgs, 'view'>): ReturnType<RepositoryAdapter['findOne']>;
  insert(values: Row, args?: Partial<WriteArgs>): ReturnType<RepositoryAdapter['insert']>;
  update(key: EntityKey, values: Row, args?: Partial<UpdateArgs>): ReturnType<RepositoryAdapter['update']>;
  softDelete(key: EntityKey, args?: Partial<WriteArgs>): Promise<void>;
  restore(key: EntityKey, args?: Partial<WriteArgs>): Promise<void>;
  remove(key: EntityKey, args?: Partial<WriteArgs>): Promise<void>;
}
