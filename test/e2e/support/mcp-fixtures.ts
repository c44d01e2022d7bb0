/**
 * The app the agent-tool suites serve: the bookstore's Book (soft delete), Author (an operations map without writes
 * beyond create), Note (uuid key, enum, json, date), and two entities for access rules: Ledger rows scoped per tenant
 * by `filter.apply` with editor-only writes, and Vault rows whose `findMany` policy admits admins only.
 */
import type { EntityConfig, PolicyFunction, SvcContext } from '@svc/core';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { svcController } from '../../support/create-test-app';
import { Author, Book, Note, Review, Tag } from '../../fixtures/bookstore-entities';
import type { TestCaller } from './mcp-app';

@Entity('mcp_ledger')
export class Ledger {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) label!: string;
  @Column({ type: 'int', default: 0 }) amount!: number;
}

@Entity('mcp_vault')
export class Vault {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 100 }) secret!: string;
}

/** The caller: `request.user` over HTTP (the guard's), `context.user` over stdio (the host's). */
export function callerOf(context: SvcContext): TestCaller | undefined {
  const request = context.request as { user?: TestCaller } | undefined;
  return request?.user ?? (context['user'] as TestCaller | undefined);
}

const READS = new Set(['findMany', 'findOne']);

/** Anyone with a tenant reads; editors write. */
const ledgerPolicy: PolicyFunction = ({ operation, context }) => {
  const caller = callerOf(context);
  if (!caller?.tenant) return false;
  return READS.has(operation) || caller.role === 'editor';
};

export const LEDGER_CONFIG: EntityConfig = {
  policy: ledgerPolicy,
  filter: { apply: ({ context }) => ({ tenant: { eq: callerOf(context)?.tenant ?? '' } }) },
};

export const VAULT_CONFIG: EntityConfig = {
  policy: ({ context }) => callerOf(context)?.role === 'admin',
};

export const BOOK_CONFIG: EntityConfig = {
  filter: {
    fields: {
      title: ['eq', 'contains', 'in'],
      pages: ['gt', 'gte', 'lt', 'lte', 'between'],
      published: ['eq'],
      'author.name': ['eq', 'startsWith'],
    },
    limits: { maxInValues: 3 },
  },
  include: { fields: ['author'] },
  search: { fields: ['title'] },
  pagination: { maxLimit: 50 },
};

export const AUTHOR_CONFIG: EntityConfig = { operations: { findMany: true, findOne: true, createOne: true } };

export const MCP_ENTITIES = [Author, Tag, Book, Review, Note, Ledger, Vault];

export function mcpControllers() {
  return [
    svcController('books', Book, BOOK_CONFIG),
    svcController('authors', Author, AUTHOR_CONFIG),
    svcController('notes', Note),
    svcController('ledger', Ledger, LEDGER_CONFIG),
    svcController('vault', Vault, VAULT_CONFIG),
  ];
}
