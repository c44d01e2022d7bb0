/** The catalogue: anyone may read it, with or without a token; the module's policy lets only editors write. */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Book } from './book.entity';
import { Public } from './public.decorator';

@Public()
@Svc(Book, { filter: { fields: ['title', 'pages'] }, sort: { default: ['title'] } })
@Controller('books')
export class BooksController {}
