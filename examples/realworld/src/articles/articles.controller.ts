/**
 * Articles, all Svc config: found by slug, `{ article }` and `{ articles, articlesCount }`, `?author=`, `?tag=` and
 * `?favorited=`, tags as a list of names (created as they are used), `favorited` and `favoritesCount` computed for the
 * caller in the read's own statement, and only the author may change or delete one. The feed and favoriting are the
 * two custom operations (see the README).
 */
import { Controller, UseGuards } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { andFilters, builtInHandlers, sql, table, type ListReadPlan, type SvcOperationInput } from '@svc/core';
import { Override, Svc } from '@svc/nestjs';
import type { HandlerContext, SvcContext } from '@svc/core';
import { DataSource } from 'typeorm';
import { AuthRequired } from '../auth/auth-required.guard';
import { currentUserOf, isAuthorOf } from '../auth/current-user';
import { Article, User } from '../entities';
import { ArticleChanges, NewArticle } from './article-input';
import { slugOf } from './slug';

const signedIn = { decorators: [UseGuards(AuthRequired)] };
const idOf = (context: Parameters<typeof currentUserOf>[0]) => currentUserOf(context)?.id ?? null;

@Svc(Article, {
  identifier: { field: 'slug' },
  envelope: { item: 'article', list: { items: 'articles', total: 'articlesCount' } },
  select: {
    fields: ['slug', 'title', 'description', 'body', 'createdAt', 'updatedAt', 'favorited', 'favoritesCount'],
    // A list leaves the body out; every other answer serves it.
    default: ['slug', 'title', 'description', 'createdAt', 'updatedAt', 'favorited', 'favoritesCount'],
    apply: ({ operation }) => (operation === 'findMany' || operation === 'feedMany' ? undefined : ['body']),
  },
  computed: {
    favorited: {
      kind: 'boolean',
      select: (column, context) =>
        sql`EXISTS (SELECT 1 FROM ${table('favorites')} f WHERE f.article_id = ${column('id')} AND f.user_id = ${idOf(context)})`,
    },
    favoritesCount: {
      kind: 'integer',
      select: (column) => sql`(SELECT COUNT(*) FROM ${table('favorites')} f WHERE f.article_id = ${column('id')})`,
    },
  },
  include: { fields: ['author', 'tagList'], default: ['author', 'tagList'] },
  relations: { tagList: { values: 'name', write: { nested: { connectOrCreate: ['name'] } } } },
  filter: {
    fields: ['author.username', 'tagList.name', 'favoritedBy.username'],
    params: { author: 'author.username', tag: 'tagList.name', favorited: 'favoritedBy.username' },
  },
  sort: { fields: ['createdAt'], default: ['-createdAt'] },
  schema: { input: { create: NewArticle, update: ArticleChanges } },
  set: {
    create: ({ body, context }) => ({
      slug: slugOf((body as { title?: string }).title ?? ''),
      authorId: currentUserOf(context)!.id,
    }),
  },
  // Anyone reads; only the author changes or deletes an article.
  policy: ({ operation, entity, context }) =>
    !['patchOne', 'deleteOne'].includes(operation) || isAuthorOf(entity, context),
  operations: {
    findMany: true,
    findOne: true,
    createOne: { meta: signedIn },
    // Conduit's PUT changes only what it sends: a patch.
    patchOne: { meta: { ...signedIn, routes: { method: 'PUT' } } },
    deleteOne: { meta: signedIn },
    feedMany: {
      kind: 'read',
      cardinality: 'many',
      meta: { ...signedIn, routes: { method: 'GET', path: 'feed', successStatus: 200 } },
    },
    favoriteOne: { meta: { ...signedIn, routes: { method: 'POST', path: ':slug/favorite', successStatus: 200 } } },
    unfavoriteOne: { meta: { ...signedIn, routes: { method: 'DELETE', path: ':slug/favorite', successStatus: 200 } } },
  },
})
@Controller('articles')
export class ArticlesController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The articles of the authors the caller follows, newest first. */
  @Override('feedMany')
  async feed(input: SvcOperationInput, context: SvcContext) {
    const followed = await this.dataSource
      .createQueryBuilder()
      .relation(User, 'followees')
      .of(currentUserOf(context)!.id)
      .loadMany<User>();
    const plan = input.query as ListReadPlan;
    const where = andFilters(plan.where, {
      kind: 'condition',
      field: 'author.id',
      operator: 'in',
      value: followed.map((user) => user.id),
    });
    return builtInHandlers.findMany({ ...input, query: { ...plan, where } }, context);
  }

  @Override('favoriteOne')
  favorite(input: SvcOperationInput, context: HandlerContext<Article>) {
    return this.favoritedBy(input, context, true);
  }

  @Override('unfavoriteOne')
  unfavorite(input: SvcOperationInput, context: HandlerContext<Article>) {
    return this.favoritedBy(input, context, false);
  }

  /** Adds or removes the caller among the article's favoriters, and answers the article as the caller now reads it. */
  private async favoritedBy(input: SvcOperationInput, context: HandlerContext<Article>, on: boolean) {
    const user = currentUserOf(context)!.id;
    // Removed first, then added: favoriting twice leaves one favorite.
    await context.repository.relate(input.key!, 'favoritedBy', { remove: [user], add: on ? [user] : [] });
    return context.repository.findOne({ key: input.key! });
  }
}
