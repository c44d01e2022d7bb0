/**
 * A stdio MCP server over the agent-tool suites' app, launched as a child process by the stdio suite: the database
 * from SVC_MCP_TEST_DATASOURCE (JSON DataSource options, schema already made), the caller from SVC_MCP_TEST_USER.
 */
import 'reflect-metadata';
import { createSvc } from '@svc/core';
import { serveMcpStdio } from '@svc/mcp';
import { typeorm } from '@svc/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { Author, Book, Note } from '../../../../test/fixtures/bookstore-entities';
import {
  AUTHOR_CONFIG,
  BOOK_CONFIG,
  LEDGER_CONFIG,
  Ledger,
  MCP_ENTITIES,
  VAULT_CONFIG,
  Vault,
} from '../../../../test/e2e/support/mcp-fixtures';

async function main(): Promise<void> {
  const options = JSON.parse(process.env['SVC_MCP_TEST_DATASOURCE'] ?? '{}') as DataSourceOptions;
  const dataSource = await new DataSource({
    ...options,
    entities: MCP_ENTITIES,
    synchronize: false,
  } as DataSourceOptions).initialize();
  const svc = createSvc({ infrastructure: typeorm({ dataSource }), operations: { purgeOne: true } });
  svc.createCrud(Book, BOOK_CONFIG);
  svc.createCrud(Author, AUTHOR_CONFIG);
  svc.createCrud(Note);
  svc.createCrud(Ledger, LEDGER_CONFIG);
  svc.createCrud(Vault, VAULT_CONFIG);
  const user = process.env['SVC_MCP_TEST_USER'];
  serveMcpStdio({
    svc,
    name: 'svc-stdio-test',
    context: user ? { user: JSON.parse(user) as unknown } : {},
    onError: (error) => process.stderr.write(`${error.stack ?? error.message}\n`),
  });
  process.stdin.once('end', () => void dataSource.destroy());
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
