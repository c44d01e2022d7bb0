/** Opens database transactions; on SQLite (one connection) they run one after another through a queue. */
import type { DataSource, EntityManager } from 'typeorm';
import type { DatabaseDialect } from './database-dialect';

/** Per-DataSource tail of the SQLite transaction queue. */
const queues = new WeakMap<DataSource, Promise<unknown>>();

/** Thrown by `work`; kept apart from begin/commit failures so the caller can tell them apart. */
export class WorkFailure {
  constructor(readonly error: unknown) {}
}

/**
 * Runs `work` in a transaction: commits when it resolves, rolls back when it throws. An error of `work` is rethrown
 * wrapped in WorkFailure; anything else (begin, commit, rollback) is the raw driver error.
 */
export function runTransaction<T>(
  dataSource: DataSource,
  dialect: DatabaseDialect,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const run = (): Promise<T> =>
    dataSource.transaction(async (manager) => {
      try {
        return await work(manager);
      } catch (error) {
        throw new WorkFailure(error);
      }
    });
  return dialect === 'sqlite' ? enqueue(dataSource, run) : run();
}

function enqueue<T>(dataSource: DataSource, run: () => Promise<T>): Promise<T> {
  const tail = queues.get(dataSource) ?? Promise.resolve();
  const result = tail.then(run, run);
  queues.set(
    dataSource,
    result.then(
      () => undefined,
      () => undefined,
    ),
  );
  return result;
}
