/**
 * `GET /api/articles` of the RealWorld (Conduit) API written by hand with Nest and TypeORM, on the entities of
 * examples/realworld, for `bench/realworld-articles.ts`: what a NestJS developer would write without Svc. It answers
 * the same JSON as the Svc app, `{ articles, limit, offset, articlesCount }`, each article with its `tagList` (names),
 * its author's profile (`username`, `bio`, `image`, `following`) and `favorited` / `favoritesCount` for the caller.
 *
 * Per request: the token is verified (a global guard, as in the Conduit app); then one query builder statement reads
 * the page (the articles joined with their authors, only the columns a list serves) while `count()` counts the
 * articles; then, for the page's 20 ids, three statements at once: the tag names, each article's favorites counted
 * with whether the caller is among them (one GROUP BY), and which of the page's authors the caller follows. Five
 * statements in two waits on the database. (The counts as subselects in the page's statement cost more: the database
 * works them out for every article it sorts, not only the 20 it answers.)
 */
import {
  Controller,
  DefaultValuePipe,
  Get,
  Injectable,
  Module,
  ParseIntPipe,
  Query,
  Req,
  UnauthorizedException,
  type CanActivate,
  type DynamicModule,
  type ExecutionContext,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule, JwtService } from '@nestjs/jwt';
import { InjectDataSource, InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, Repository, type DataSourceOptions } from 'typeorm';
import { jwtOptions } from '../../examples/realworld/src/auth/auth-options';
import { Article, CONDUIT_ENTITIES, Tag } from '../../examples/realworld/src/entities';

interface Caller {
  readonly id: number;
  readonly username: string;
}

interface CallerRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  user?: Caller;
}

/** `Authorization: Token <jwt>` puts the caller on the request; no header goes on as anonymous; a bad token is a 401. */
@Injectable()
export class OptionalTokenGuard implements CanActivate {
  constructor(private readonly jwt: JwtService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<CallerRequest>();
    const header = request.headers['authorization'];
    if (typeof header !== 'string' || header === '') return true;
    const token = /^(?:Token|Bearer)\s+(\S+)$/i.exec(header.trim())?.[1];
    try {
      const claims = await this.jwt.verifyAsync<{ sub: number; username: string }>(token ?? '');
      request.user = { id: claims.sub, username: claims.username };
      return true;
    } catch {
      throw new UnauthorizedException('token is invalid');
    }
  }
}

export interface ArticleView {
  slug: string;
  title: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  tagList: string[];
  favorited: boolean;
  favoritesCount: number;
  author: { username: string; bio: string | null; image: string | null; following: boolean };
}

@Controller('articles')
export class HandwrittenArticlesController {
  constructor(
    @InjectRepository(Article) private readonly articles: Repository<Article>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(
    @Req() request: CallerRequest,
    @Query('limit', new DefaultValuePipe(20), ParseIntPipe) limit: number,
    @Query('offset', new DefaultValuePipe(0), ParseIntPipe) offset: number,
  ): Promise<{ articles: ArticleView[]; limit: number; offset: number; articlesCount: number }> {
    const me = request.user?.id ?? null;
    const take = Math.min(Math.max(limit, 1), 100);
    const skip = Math.max(offset, 0);
    const [page, articlesCount] = await Promise.all([
      this.articles
        .createQueryBuilder('article')
        .innerJoin('article.author', 'author')
        .select(['article.id', 'article.slug', 'article.title', 'article.description'])
        .addSelect(['article.createdAt', 'article.updatedAt'])
        .addSelect(['author.id', 'author.username', 'author.bio', 'author.image'])
        .orderBy('article.createdAt', 'DESC')
        .addOrderBy('article.id', 'DESC')
        .limit(take)
        .offset(skip)
        .getMany(),
      this.articles.count(),
    ]);
    if (page.length === 0) return { articles: [], limit: take, offset: skip, articlesCount };

    const articleIds = page.map((article) => article.id);
    const authorIds = [...new Set(page.map((article) => article.author.id))];
    const [tagRows, favoriteRows, followed] = await Promise.all([
      this.dataSource
        .createQueryBuilder()
        .select('link.article_id', 'articleId')
        .addSelect('tag.name', 'name')
        .from('article_tags', 'link')
        .innerJoin(Tag, 'tag', 'tag.id = link.tag_id')
        .where('link.article_id IN (:...articleIds)', { articleIds })
        .orderBy('tag.id')
        .getRawMany<{ articleId: number; name: string }>(),
      this.dataSource
        .createQueryBuilder()
        .select('favorite.article_id', 'articleId')
        .addSelect('COUNT(*)', 'count')
        .addSelect('SUM(CASE WHEN favorite.user_id = :me THEN 1 ELSE 0 END)', 'mine')
        .from('favorites', 'favorite')
        .where('favorite.article_id IN (:...articleIds)', { articleIds, me })
        .groupBy('favorite.article_id')
        .getRawMany<{ articleId: number; count: number | string; mine: number | string | null }>(),
      me === null
        ? Promise.resolve([])
        : this.dataSource
            .createQueryBuilder()
            .select('follow.followee_id', 'id')
            .from('follows', 'follow')
            .where('follow.follower_id = :me AND follow.followee_id IN (:...authorIds)', { me, authorIds })
            .getRawMany<{ id: number }>(),
    ]);

    const tags = new Map<number, string[]>();
    for (const row of tagRows) {
      const id = Number(row.articleId);
      const names = tags.get(id);
      if (names) names.push(row.name);
      else tags.set(id, [row.name]);
    }
    // PostgreSQL answers COUNT and SUM as strings (bigint); SQLite as numbers.
    const favorites = new Map(favoriteRows.map((row) => [Number(row.articleId), row]));
    const following = new Set(followed.map((row) => Number(row.id)));
    return {
      articles: page.map((article) => ({
        slug: article.slug,
        title: article.title,
        description: article.description,
        createdAt: article.createdAt,
        updatedAt: article.updatedAt,
        tagList: tags.get(article.id) ?? [],
        favorited: Number(favorites.get(article.id)?.mine ?? 0) > 0,
        favoritesCount: Number(favorites.get(article.id)?.count ?? 0),
        author: {
          username: article.author.username,
          bio: article.author.bio,
          image: article.author.image,
          following: following.has(article.author.id),
        },
      })),
      limit: take,
      offset: skip,
      articlesCount,
    };
  }
}

/** The hand-written app's module: TypeORM on `database`, the JWT settings of the Conduit app, the guard, the route. */
@Module({})
export class HandwrittenArticlesModule {
  static forRoot(database: DataSourceOptions, jwtSecret: string): DynamicModule {
    return {
      module: HandwrittenArticlesModule,
      imports: [
        TypeOrmModule.forRoot(database),
        TypeOrmModule.forFeature(CONDUIT_ENTITIES),
        JwtModule.register(jwtOptions(jwtSecret)),
      ],
      controllers: [HandwrittenArticlesController],
      providers: [{ provide: APP_GUARD, useClass: OptionalTokenGuard }],
    };
  }
}
