/**
 * Two tenants and four roles over books, their authors and reviews (`access`): a reader sees neither a book's supplier
 * cost nor an author's email and writes nothing; an editor reads as a reader, creates with a title, a price and an
 * author and updates the title and price only; an admin has no rule (sees and writes what everyone may); a blocked
 * caller is refused books by their policy. Shared by the REST, GraphQL, agent-tool and realtime suites of `access`.
 */
import type { EntityConfig, SvcContext } from '@svc/core';
import { Column, Entity, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn } from 'typeorm';

@Entity('ac_author')
export class AcAuthor {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @Column({ type: 'varchar', length: 100 }) email!: string;
  @OneToMany(() => AcBook, (book) => book.author) books!: AcBook[];
}

@Entity('ac_book')
export class AcBook {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'varchar', length: 20, default: 'draft' }) status!: string;
  @Column({ type: 'int' }) price!: number;
  /** The supplier's cost: only an admin reads it. */
  @Column({ type: 'int', default: 0 }) cost!: number;
  @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => AcAuthor, (author) => author.books, { nullable: true, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'authorId' })
  author!: AcAuthor | null;
  @OneToMany(() => AcReview, (review) => review.book) reviews!: AcReview[];
}

@Entity('ac_review')
export class AcReview {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'int' }) rating!: number;
  @Column({ type: 'int' }) bookId!: number;
  @ManyToOne(() => AcBook, (book) => book.reviews, { nullable: false, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'bookId' })
  book!: AcBook;
}

export const ACCESS_ENTITIES = [AcAuthor, AcBook, AcReview];

function header(context: SvcContext, name: string): string | undefined {
  const headers = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers;
  const value = headers?.[name] ?? (context as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** The caller's tenant (`x-tenant`) and role (`x-role`), from the request's headers or the context itself. */
export const tenantOf = (context: SvcContext): string => header(context, 'x-tenant') ?? 'nobody';
export const roleOf = (context: SvcContext): string | undefined => header(context, 'x-role');

function tenantScoped<T>(config: EntityConfig<T>): EntityConfig<T> {
  return {
    ...config,
    filter: { ...config.filter, apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
    set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
  } as EntityConfig<T>;
}

export const BOOK_CONFIG: EntityConfig<AcBook> = tenantScoped<AcBook>({
  policy: ({ context }) => roleOf(context) !== 'blocked',
  schema: { input: { create: ['title', 'status', 'price', 'cost', 'authorId', 'author'] } },
  search: { fields: ['title', 'author.email'] },
  include: { fields: ['author', 'reviews'] },
  aggregate: { groupBy: ['status', 'cost'], fields: { price: ['sum'], cost: ['sum'] } },
  count: true,
  batch: { create: true, update: true },
  access: {
    role: roleOf,
    roles: {
      reader: { read: { exclude: ['cost'] }, create: false, update: false, delete: false },
      editor: {
        read: { exclude: ['cost'] },
        create: ['title', 'price', 'author', 'authorId'],
        update: ['title', 'price'],
        delete: false,
      },
      admin: {},
    },
  },
});

export const AUTHOR_CONFIG: EntityConfig<AcAuthor> = tenantScoped<AcAuthor>({
  schema: { input: { create: ['name', 'email'] } },
  include: { fields: ['books'] },
  access: {
    role: roleOf,
    roles: { reader: { read: { exclude: ['email'] } }, editor: { read: { exclude: ['email'] } } },
  },
});

export const REVIEW_CONFIG: EntityConfig<AcReview> = tenantScoped<AcReview>({
  schema: { input: { create: ['rating', 'bookId', 'book'] } },
  filter: { fields: ['rating', 'bookId', 'book.title', 'book.cost'] },
  sort: { fields: ['id', 'rating', 'book.title', 'book.cost'] },
  aggregate: { groupBy: ['book.status', 'book.cost'] },
  include: { fields: ['book'] },
});
