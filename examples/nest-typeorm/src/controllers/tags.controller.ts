/** `/tags`: every default (all columns filterable and sortable), and its reads cached. */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Tag } from '../entities/tag.entity';

// Tags change rarely and are read on every page: their reads are cached for 30 s (shared through Redis when
// REDIS_URL is set; a write on any instance drops them at once).
@Svc(Tag, { sort: { default: ['name'] }, cache: { ttl: 30 } })
@Controller('tags')
export class TagsController {}
