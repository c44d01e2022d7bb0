/**
 * `GET /tags`: `{ "tags": ["dragons", "training"] }`, the names of the tags some article carries. App code rather
 * than Svc config: the answer is a bare list of names drawn through the articles' join table, not rows of an entity.
 * `@Svc(Tag)` serves no route of its own: the tags an article's `tagList` creates go through its createOne.
 */
import { Controller, Get } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Svc } from '@svc/nestjs';
import { Repository } from 'typeorm';
import { Tag } from '../entities';

@Svc(Tag, { operations: { createOne: { meta: { routes: { enabled: false } } } } })
@Controller('tags')
export class TagsController {
  constructor(@InjectRepository(Tag) private readonly tags: Repository<Tag>) {}

  @Get()
  async list(): Promise<{ tags: string[] }> {
    const rows = await this.tags
      .createQueryBuilder('tag')
      .select('tag.name', 'name')
      .where('EXISTS (SELECT 1 FROM article_tags used WHERE used.tag_id = tag.id)')
      .orderBy('tag.name')
      .getRawMany<{ name: string }>();
    return { tags: rows.map((row) => row.name) };
  }
}
