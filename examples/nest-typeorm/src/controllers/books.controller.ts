/** `/books`: soft-deleted, so `PATCH /books/:id/restore` and `DELETE /books/:id/purge` are served too. */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Book } from '../entities/book.entity';

const WRITABLE = ['title', 'isbn', 'pages', 'rating', 'published', 'authorId'];

@Svc(Book, {
  filter: {
    fields: {
      title: ['eq', 'contains', 'startsWith'],
      pages: ['eq', 'gt', 'gte', 'lt', 'lte', 'between'],
      rating: ['gte', 'lte', 'isNull'],
      published: ['eq'],
      authorId: ['eq', 'in'],
    },
  },
  sort: { fields: ['title', 'pages', 'rating', 'createdAt', 'id'], default: ['title'] },
  pagination: { defaultLimit: 10, maxLimit: 50 },
  schema: { input: { create: WRITABLE, update: WRITABLE, patch: WRITABLE } },
})
@Controller('books')
export class BooksController {}
