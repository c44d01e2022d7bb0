/**
 * `/reviews`: a feed, newest first, paged by cursor (`?cursor=` from the previous page's `meta.nextCursor`). A review
 * names its book on create and may only change its rating and text afterwards.
 */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Review } from '../entities/review.entity';

@Svc(Review, {
  filter: { fields: ['id', 'bookId', 'rating', 'reviewer', 'createdAt'] },
  sort: { fields: ['rating', 'createdAt', 'id'], default: ['-createdAt', '-id'] },
  pagination: { strategy: 'cursor', defaultLimit: 20 },
  schema: {
    input: { create: ['bookId', 'rating', 'reviewer', 'body'], update: ['rating', 'body'], patch: ['rating', 'body'] },
  },
})
@Controller('reviews')
export class ReviewsController {}
