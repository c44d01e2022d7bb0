/**
 * `/books`: soft-deleted (restore and purge routes), searchable by title, embeds its author and tags on `include`,
 * writes a new or existing author and tags nested in its own body, batch writes (an upsert on isbn), aggregates per
 * group, a custom `publishOne` action on `PATCH /books/:id/publish`, and access per role: the supplier cost only for
 * admins, the `featured` flag written only by admins.
 */
import { Controller } from '@nestjs/common';
import type { OperationHandler } from '@svc/core';
import { Svc } from '@svc/nestjs';
import { callerOf } from '../access/caller';
import { Book } from '../entities/book.entity';

const WRITABLE = ['title', 'isbn', 'pages', 'rating', 'published', 'authorId', 'supplierCost', 'featured'] as const;

/**
 * Marks one book published. `context.repository` is scoped to the request: it joins the operation's transaction
 * and answers 404 for a missing or deleted book, so the handler only says what changes.
 */
const publishOne: OperationHandler = async (input, context) => {
  const key = input.key!; // { id: 7 }; input.id is the id itself
  await context.repository.update(key, { published: true });
  return context.repository.findOne({ key });
};

@Svc(Book, {
  filter: {
    // The fields clients may filter on, each with its operators; any other column (isbn, createdAt, ...) is a 400.
    fields: {
      // Batch writes name their rows: PATCH /books?filter[id][in]=1,2.
      id: ['eq', 'in'],
      title: ['eq', 'contains', 'startsWith'],
      pages: ['eq', 'gt', 'gte', 'lt', 'lte', 'between'],
      rating: ['gte', 'lte', 'isNull'],
      published: ['eq'],
      featured: ['eq'],
      authorId: ['eq', 'in'],
      // Only for a role that reads it: a reader or an editor filtering on it gets a 400, as for an unknown field.
      supplierCost: ['gte', 'lte'],
    },
  },
  sort: { fields: ['title', 'pages', 'rating', 'createdAt', 'id'], default: ['title'] },
  search: { fields: ['title'], mode: 'words' },
  include: { fields: ['author', 'tags'] },
  // Nested writes: a create or update body may carry a new or existing author, and existing or new tags, under the
  // relation's name. Each nested row is held to its own controller's rules and policy, in the book's transaction.
  relations: {
    author: { write: { nested: { create: true, connect: true } } },
    // A tag's name is unique (see the Tag entity): connectOrCreate connects the tag of that name, or creates it.
    tags: { write: { nested: { connect: true, connectOrCreate: ['name'] }, maxMembers: 10 } },
  },
  pagination: { defaultLimit: 10, maxLimit: 50 },
  // Every committed write of a book is an event on GET /books/events (Server-Sent Events).
  realtime: {},
  schema: { input: { create: WRITABLE, update: WRITABLE, patch: WRITABLE } },
  // What each role reads and writes of a book, within what the lines above give everyone. The caller's role comes from
  // its token (the guard puts it on request.user); a caller without a token reads as a reader. The policy refuses a
  // reader's writes already (403); the reader's rule says so too, so each role's whole access reads here.
  access: {
    role: (context) => callerOf(context)?.role ?? 'reader',
    roles: {
      reader: { read: { exclude: ['supplierCost'] }, create: false, update: false, delete: false },
      // Creates and updates every writable field but `featured`: sending it is a 400 naming it.
      editor: {
        read: { exclude: ['supplierCost'] },
        create: { exclude: ['featured'] },
        update: { exclude: ['featured'] },
      },
      admin: { read: 'all', create: 'all', update: 'all', delete: true },
    },
  },
  // POST /books/batch (an upsert on isbn), PATCH /books?filter=... and DELETE /books?filter=..., all or nothing.
  batch: {
    create: { onConflict: { target: ['isbn'], update: ['title', 'pages', 'rating'] } },
    update: true,
    delete: true,
    maxItems: 50,
    maxAffected: 50,
  },
  // GET /books/aggregate: counts, sums and averages per group, computed by the database under the list's filter.
  aggregate: { groupBy: ['published', 'authorId', 'author.country'] },
  operations: {
    // Declaring a custom operation makes the map a whitelist, so the standard operations are named too.
    findMany: true,
    findOne: true,
    createOne: true,
    updateOne: true,
    patchOne: true,
    deleteOne: true,
    restoreOne: true,
    purgeOne: true,
    publishOne: { meta: { routes: { method: 'PATCH', path: ':id/publish', successStatus: 200 } }, handler: publishOne },
  },
})
@Controller('books')
export class BooksController {}
