/**
 * The app the Redis scale-out suites run as child processes: notes (scoped per tenant, cached with their author
 * included, realtime on) and authors (cached), both in one database and one Redis shared by every instance.
 */
import type { EntityConfig, SvcContext } from '@svc/core';
import { Column, CreateDateColumn, Entity, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

@Entity('rd_author')
export class RdAuthor {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 100 }) name!: string;
}

@Entity('rd_note')
export class RdNote {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'int', default: 0 }) version!: number;
  /** Whatever a client writes: it must come back to every instance's subscribers as written. */
  @Column({ type: 'simple-json', nullable: true }) meta!: unknown;
  @CreateDateColumn() createdAt!: Date;
  @ManyToOne(() => RdAuthor, { nullable: true, onDelete: 'SET NULL' }) author!: RdAuthor | null;
}

export const REDIS_ENTITIES = [RdAuthor, RdNote];

/** The caller's tenant: the `x-tenant` header. */
export const tenantOf = (context: SvcContext): string => {
  const header = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers?.['x-tenant'];
  return typeof header === 'string' ? header : 'none';
};

export const NOTE_CONFIG: EntityConfig = {
  cache: { ttl: 60 },
  include: { fields: ['author'] },
  filter: { fields: ['title', 'version'], apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
  set: ({ context }) => ({ tenant: tenantOf(context) }),
  realtime: {},
};

export const AUTHOR_CONFIG: EntityConfig = { cache: { ttl: 60 } };
