/**
 * Comments, a child collection of articles, all Svc config: `/articles/:slug/comments` reaches only that article's
 * comments (an unknown slug is the article's 404), `{ comment }` and `{ comments }`, the author embedded as a profile,
 * and only the author may delete one.
 */
import { Controller, UseGuards } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { IsNotEmpty, IsString } from 'class-validator';
import { AuthRequired } from '../auth/auth-required.guard';
import { currentUserOf, isAuthorOf } from '../auth/current-user';
import { Comment } from '../entities';

const signedIn = { decorators: [UseGuards(AuthRequired)] };

export class NewComment {
  @IsString() @IsNotEmpty() body!: string;
}

@Svc(Comment, {
  parent: { relation: 'article', param: 'slug', field: 'slug' },
  envelope: { item: 'comment', list: { items: 'comments' } },
  select: { fields: ['id', 'body', 'createdAt', 'updatedAt'] },
  include: { fields: ['author'], default: ['author'] },
  schema: { input: { create: NewComment } },
  set: { create: ({ context }) => ({ authorId: currentUserOf(context)!.id }) },
  policy: ({ operation, entity, context }) => operation !== 'deleteOne' || isAuthorOf(entity, context),
  pagination: { defaultLimit: 100 },
  operations: { findMany: true, createOne: { meta: signedIn }, deleteOne: { meta: signedIn } },
})
@Controller('articles/:slug/comments')
export class CommentsController {}
