/** The baseline: the books routes written by hand the idiomatic NestJS + TypeORM way. */
import {
  Body,
  Controller,
  DefaultValuePipe,
  Get,
  NotFoundException,
  Param,
  ParseIntPipe,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  ILike,
  LessThan,
  MoreThanOrEqual,
  type FindOptionsOrder,
  type FindOptionsWhere,
  type Repository,
} from 'typeorm';
import { BenchBook, CHEAP_PAGES_BELOW } from './entities';

export const HANDWRITTEN_DATA_SOURCE = 'handwritten';

@Controller('books')
export class HandwrittenBooksController {
  constructor(@InjectRepository(BenchBook, HANDWRITTEN_DATA_SOURCE) private readonly repo: Repository<BenchBook>) {}

  /**
   * The list, plus what the `list-filtered` and `list-include` scenarios send, read the way a hand-written controller
   * would: only the parameters those scenarios use (Express 5's simple query parser keeps `filter[pages][gte]` as a
   * flat key), no allowlists or error reports. `ILike` is `ILIKE` on PostgreSQL and `UPPER(..) LIKE UPPER(..)` on
   * SQLite: a case-insensitive substring match like Svc's `contains` (`ILIKE .. ESCAPE` on PostgreSQL; on SQLite a
   * bare `LIKE .. ESCAPE`, as SQLite's LIKE already folds the ASCII case its UPPER and LOWER fold).
   */
  @Get()
  async findMany(
    @Query('limit', new DefaultValuePipe(20), ParseIntPipe) limit: number,
    @Query('offset', new DefaultValuePipe(0), ParseIntPipe) offset: number,
    @Query('filter[pages][gte]', new ParseIntPipe({ optional: true })) minPages?: number,
    @Query('filter[title][contains]') titleContains?: string,
    @Query('sort') sort?: string,
    @Query('include') include?: string,
  ) {
    const take = Math.min(Math.max(limit, 1), 100);
    const where: FindOptionsWhere<BenchBook> = {};
    if (minPages !== undefined) where.pages = MoreThanOrEqual(minPages);
    if (titleContains !== undefined) where.title = ILike(`%${titleContains}%`);
    const order: FindOptionsOrder<BenchBook> = sort === '-pages' ? { pages: 'DESC', id: 'ASC' } : { id: 'ASC' };
    const [items, total] = await this.repo.findAndCount({
      where,
      order,
      take,
      skip: offset,
      ...(include === 'author' ? { relations: { author: true } } : {}),
    });
    return { items, total, limit: take, offset };
  }

  @Get(':id')
  async findOne(@Param('id', ParseIntPipe) id: number) {
    const book = await this.repo.findOneBy({ id });
    if (!book) throw new NotFoundException(`Book ${id} not found`);
    return book;
  }

  @Post()
  create(@Body() body: Partial<BenchBook>) {
    return this.repo.save(this.repo.create(body));
  }

  /**
   * The leanest idiomatic create: `repository.insert` and the DTO back, with the id TypeORM fills in (no read of
   * what the database stored, no transaction), for the `create-lean` scenario.
   */
  @Post('lean')
  async createLean(@Body() body: Partial<BenchBook>) {
    await this.repo.insert(body);
    return body;
  }

  @Patch(':id')
  async patch(@Param('id', ParseIntPipe) id: number, @Body() body: Partial<BenchBook>) {
    const book = await this.repo.findOneBy({ id });
    if (!book) throw new NotFoundException(`Book ${id} not found`);
    return this.repo.save(this.repo.merge(book, body));
  }
}

/**
 * The custom read written by hand, for the `custom-read` scenario: the same query as Svc's `cheapBooksMany` handler
 * (`pages < 300`, ordered by pages then id, the requested page, no count) with the TypeORM repository's `find`, and the
 * same envelope as Svc's answer, `{ items, limit, offset, total: null }`. Reads only `limit` and `offset`.
 */
@Controller('custom-books')
export class HandwrittenCustomBooksController {
  constructor(@InjectRepository(BenchBook, HANDWRITTEN_DATA_SOURCE) private readonly repo: Repository<BenchBook>) {}

  @Get('cheap')
  async cheap(
    @Query('limit', new DefaultValuePipe(20), ParseIntPipe) limit: number,
    @Query('offset', new DefaultValuePipe(0), ParseIntPipe) offset: number,
  ) {
    const take = Math.min(Math.max(limit, 1), 100);
    const items = await this.repo.find({
      where: { pages: LessThan(CHEAP_PAGES_BELOW) },
      order: { pages: 'ASC', id: 'ASC' },
      take,
      skip: offset,
    });
    return { items, limit: take, offset, total: null };
  }
}
