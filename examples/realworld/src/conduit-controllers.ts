/**
 * The controllers Conduit serves under `/api`: the app's own (users, tags) and the Svc-configured ones (articles,
 * comments, profiles). A new controller is listed here.
 */
import type { Type } from '@nestjs/common';
import { ArticlesController } from './articles/articles.controller';
import { CommentsController } from './comments/comments.controller';
import { ProfilesController } from './profiles/profiles.controller';
import { TagsController } from './tags/tags.controller';
import { UsersController } from './users/users.controller';

export const CONDUIT_CONTROLLERS: Type[] = [
  UsersController,
  TagsController,
  // The child collection first: its routes are more specific than the articles' own.
  CommentsController,
  ArticlesController,
  ProfilesController,
];
