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
import type { Repository } from 'typeorm';
import { BenchBook } from './entities';

export const HANDWRITTEN_DATA_SOURCE = 'handwritten';

@Controller('books')
export class HandwrittenBooksController {
  constructor(@InjectRepository(BenchBook, HANDWRITTEN_DATA_SOURCE) private readonly repo: Repository<BenchBook>) {}

  @Get()
  async findMany(
    @Query('limit', new DefaultValuePipe(20), ParseIntPipe) limit: number,
    @Query('offset', new DefaultValuePipe(0), ParseIntPipe) offset: number,
  ) {
    const take = Math.min(Math.max(limit, 1), 100);
    const [items, total] = await this.repo.findAndCount({ take, skip: offset, order: { id: 'ASC' } });
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

  @Patch(':id')
  async patch(@Param('id', ParseIntPipe) id: number, @Body() body: Partial<BenchBook>) {
    const book = await this.repo.findOneBy({ id });
    if (!book) throw new NotFoundException(`Book ${id} not found`);
    return this.repo.save(this.repo.merge(book, body));
  }
}
