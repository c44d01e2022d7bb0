/** What a client writes of an article: non-empty strings (its tags go through `tagList`, its author is the caller). */
import { IsNotEmpty, IsOptional, IsString } from 'class-validator';

export class NewArticle {
  @IsString() @IsNotEmpty() title!: string;
  @IsString() @IsNotEmpty() description!: string;
  @IsString() @IsNotEmpty() body!: string;
}

export class ArticleChanges {
  @IsOptional() @IsString() @IsNotEmpty() title?: string;
  @IsOptional() @IsString() @IsNotEmpty() description?: string;
  @IsOptional() @IsString() @IsNotEmpty() body?: string;
}
