/** `/authors`: the eight standard routes (hard delete: no restore or purge), filterable by name and country. */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Author } from '../entities/author.entity';

@Svc(Author, {
  filter: {
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
