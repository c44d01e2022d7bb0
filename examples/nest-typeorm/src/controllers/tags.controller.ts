/** `/tags`: every default (all columns filterable and sortable). */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Tag } from '../entities/tag.entity';

@Svc(Tag, { sort: { default: ['name'] } })
@Controller('tags')
export class TagsController {}
