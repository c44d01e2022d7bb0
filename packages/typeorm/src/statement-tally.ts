/**
 * Counts the SQL statements an operation sends, for its span (`svc.statements`). Every TypeORM query runner, on every
 * driver, hands each statement to the DataSource's logger before it sends it, whatever `logging` says (the logger
 * decides what to print), so the logger's `logQuery` is where the count is taken: once per DataSource, keeping the
 * app's own logger as it was. Transaction control (BEGIN, COMMIT, ...) is not counted, as it carries no data.
 */
import { countStatement } from '@svc/core/spi';
import type { DataSource, Logger } from 'typeorm';

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE|SET TRANSACTION)\b/i;

const tallied = new WeakSet<Logger>();

/** Makes the DataSource's logger count each statement it is handed against the operation running it. */
export function tallyStatements(dataSource: DataSource): void {
  const logger = dataSource.logger;
  if (tallied.has(logger)) return;
  tallied.add(logger);
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, queryRunner) => {
    if (!TRANSACTION_CONTROL.test(query)) countStatement();
    return logQuery(query, parameters, queryRunner);
  };
}
