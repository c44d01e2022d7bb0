/** `/reviews`: a review names its book on create and may only change its rating and text afterwards. */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Review } from '../entities/review.entity';

@Svc(Review, {
  filter: { fields: ['bookId', 'rating', 'reviewer'] },
  sort: { fields: ['rating', 'createdAt', 'id'], default: ['-createdAt', 'id'] },
  pagination: { defaultLimit: 20 },
  schema: {
    input: { create: ['bookId', 'rating', 'reviewer', 'body'], update: ['rating', 'body'], patch: ['rating', 'body'] },
  },
})
@Controller('reviews')
export class ReviewsController {}
