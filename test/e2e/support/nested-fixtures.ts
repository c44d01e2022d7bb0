/**
 * Books with an author (to-one), tags (many-to-many, a tag's name unique across tenants) and reviews (one-to-many),
 * each entity scoped to a tenant (`x-tenant`), with nested writes on the book's three relations. Shared by the
 * nested-write suites.
 */
import type { EntityConfig, SvcContext } from '@svc/core';
import {
  Column,
  Entity,
  JoinColumn,
  JoinTable,
  ManyToMany,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
} from 'typeorm';

@Entity('nw_author')
export class NwAuthor {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @OneToMany(() => NwBook, (book) => book.author) books!: NwBook[];
}

@Entity('nw_tag')
export class NwTag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 40, unique: true }) name!: string;
}

@Entity('nw_book')
export class NwBook {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => NwAuthor, (author) => author.books, { nullable: true, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'authorId' })
  author!: NwAuthor | null;
  @ManyToMany(() => NwTag) @JoinTable({ name: 'nw_book_tags' }) tags!: NwTag[];
  @OneToMany(() => NwReview, (review) => review.book) reviews!: NwReview[];
}

@Entity('nw_review')
export class NwReview {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'int' }) rating!: number;
  @Column({ type: 'int' }) bookId!: number;
  @ManyToOne(() => NwBook, (book) => book.reviews, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bookId' })
  book!: NwBook;
}

export const NESTED_ENTITIES = [NwAuthor, NwTag, NwBook, NwReview];

export const tenantOf = (context: SvcContext): string => {
  const headers = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers;
  const value = headers?.['x-tenant'] ?? (context as Record<string, unknown>)['x-tenant'];
  return typeof value === 'string' ? value : 'nobody';
};

function tenantScoped<T>(config: EntityConfig<T>): EntityConfig<T> {
  return {
    ...config,
    filter: { ...config.filter, apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
    set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
  } as EntityConfig<T>;
}

/** The caller's role (`x-role`): a `junior` may not create authors (`access`). */
const roleOf = (context: SvcContext): string | undefined => {
  const headers = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers;
  const value = headers?.['x-role'];
  return typeof value === 'string' ? value : undefined;
};

/** An author's own nested books go one level deep only (a book created under a nested author is too deep). */
export const AUTHOR_CONFIG = tenantScoped<NwAuthor>({
  schema: { input: { create: ['name'], update: ['name'] } },
  relations: { books: { write: { nested: { create: true }, maxDepth: 1 } } },
  access: { role: roleOf, roles: { junior: { create: false } } },
});
/** A tag named `forbidden` may not be created (the tag's own policy). */
export const TAG_CONFIG = tenantScoped<NwTag>({
  schema: { input: { create: ['name'], update: ['name'] } },
  policy: ({ operation, body }) =>
    operation !== 'createOne' || (body as { name?: unknown } | undefined)?.name !== 'forbidden',
});
export const REVIEW_CONFIG = tenantScoped<NwReview>({
  schema: { input: { create: ['rating', 'bookId', 'book'], update: ['rating'] } },
});
export const BOOK_CONFIG = tenantScoped<NwBook>({
  schema: { input: { create: ['title', 'authorId', 'author'], update: ['title', 'authorId', 'author'] } },
  include: { fields: ['author', 'tags', 'reviews'] },
  batch: { create: true },
  relations: {
    author: { write: { nested: { create: true, connect: true, update: true } } },
    tags: { write: { nested: { create: true, connect: true, connectOrCreate: ['name'] }, maxMembers: 5 } },
    reviews: { write: { nested: { create: true, connect: true } } },
  },
});
