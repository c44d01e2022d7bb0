/**
 * The contract of `context.repository`: the entity's adapter port with the session and the view filled in for a
 * handler. The engine implements it (scope, soft delete and the request's transaction held in every method).
 *
 * Every method also takes the call shape a handler may write instead, the context passed back last:
 * `findOne(id, context)`, `findMany(query, context)`, `create(body, context)`, `update(id, changes, context)`,
 * `delete(id, context)`. The repository is already bound to its request, so that context changes nothing; an id is a
 * key value (`7`, `'a,b'` for a composite key, as the route takes it) or the key object (`input.key`).
 */
import type { EntityKey } from './entity-metadata';
import type {
  FindManyArgs,
  FindOneArgs,
  RepositoryAdapter,
  Row,
  RowRepository,
  UpdateArgs,
  WriteArgs,
} from './repository-adapter';

type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** A row's id as a route takes it (`7`, `'a,b'`), or its key object. */
export type RowId = string | number | bigint | EntityKey;

/**
 * The context a handler passes back (its own `SvcContext`, holding `operation` and `repository`). Typed loosely here,
 * below the config layer that defines it.
 */
type PassedContext = object;

/** What a findMany handler returns (`ListResult`): a page of rows, the total, and any `meta`. */
export interface ScopedListResult<R = Row> {
  readonly entities: R[];
  readonly total: number | null;
  readonly meta?: Record<string, unknown>;
}

/**
 * The adapter port with the session and the view filled in for the handler. `R` is the row a handler reads and `I`
 * the body it writes: a handler's context (`HandlerContext<Book>`) fills them in from the entity, so what comes back
 * is a `Book` and a misspelt field in what goes in fails to compile.
 */
export interface ScopedRepository<R = Row, I = Row> extends RowRepository {
  findMany(args: Optional<FindManyArgs, 'view' | 'sort' | 'count'>): ReturnType<RepositoryAdapter['findMany']>;
  /**
   * A handler's resolved plan (`input.query`), or a query as `service.findMany` takes it (`FindManyQuery`, read under
   * the entity's findMany allowlists): answers what a findMany handler returns, `{ entities, total, meta? }`.
   */
  findMany(query: object, context?: PassedContext): Promise<ScopedListResult<R>>;
  findOne(args: Optional<FindOneArgs, 'view'>): ReturnType<RepositoryAdapter['findOne']>;
  /** The live row with this id inside the caller's scope, or null. */
  findOne(id: RowId, context?: PassedContext): Promise<R | null>;
  insert(values: Row, args?: Partial<WriteArgs> | PassedContext): ReturnType<RepositoryAdapter['insert']>;
  /** Inserts the row (its references and the caller's scope checked) and answers it as stored. */
  create(values: I, context?: PassedContext): Promise<R>;
  /** With the context last, answers the row as stored. */
  update(id: RowId, values: I, context: PassedContext): Promise<R | null>;
  update(id: RowId, values: Row, args?: Partial<UpdateArgs>): ReturnType<RepositoryAdapter['update']>;
  softDelete(id: RowId, args?: Partial<WriteArgs> | PassedContext): Promise<void>;
  restore(id: RowId, args?: Partial<WriteArgs> | PassedContext): Promise<void>;
  remove(id: RowId, args?: Partial<WriteArgs> | PassedContext): Promise<void>;
  /** Soft-deletes the row where the entity soft-deletes, removes it otherwise. */
  delete(id: RowId, context?: PassedContext): Promise<void>;
  /**
   * Adds and removes members of one of the row's to-many relations by their keys (a user favoriting an article), in
   * the call's transaction: the row must lie in the caller's scope, and each added row in its own entity's scope.
   */
  relate(
    id: RowId,
    relation: string,
    change: { readonly add?: readonly unknown[]; readonly remove?: readonly unknown[] },
    args?: Partial<WriteArgs> | PassedContext,
  ): Promise<void>;
}
