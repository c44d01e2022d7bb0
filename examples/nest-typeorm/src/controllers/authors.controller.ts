/** `/authors`: the eight standard routes (hard delete: no restore or purge), filtered on name, country and bornYear. */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Author } from '../entities/author.entity';

@Svc(Author, {
  filter: {
    // The fields clients may filter on, each with its operators; any other column is a 400.
    fields: {
      name: ['eq', 'contains', 'startsWith'],
      country: ['eq', 'in', 'isNull'],
      bornYear: ['gte', 'lte', 'between'],
    },
  },
  sort: { fields: ['name', 'bornYear', 'createdAt'], default: ['name'] },
  schema: {
    input: {
      create: ['name', 'country', 'bornYear'],
      update: ['name', 'country', 'bornYear'],
      patch: ['name', 'country', 'bornYear'],
    },
  },
})
@Controller('authors')
export class AuthorsController {}
