/**
 * A TypeORM logger that counts the SQL statements a request sends: `count` leaves out transaction control statements,
 * and `roundTrips` counts every statement sent (what a networked database waits on).
 */
import type { Logger } from 'typeorm';

export class StatementCounter implements Logger {
  count = 0;
  roundTrips = 0;

  logQuery(query: string): void {
    this.roundTrips++;
    if (!/^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE|SET TRANSACTION)/i.test(query)) this.count++;
  }

  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}

  /** Statements sent while `work` runs. */
  async during(work: () => Promise<unknown>): Promise<number> {
    const before = this.count;
    await work();
    return this.count - before;
  }
}
