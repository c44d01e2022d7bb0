/** The Conduit entities, as TypeORM registers them. */
import { Article } from './article.entity';
import { Comment } from './comment.entity';
import { Tag } from './tag.entity';
import { User } from './user.entity';

export { Article, Comment, Tag, User };

export const CONDUIT_ENTITIES = [User, Tag, Article, Comment];
