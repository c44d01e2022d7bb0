/** The bookstore's entities, in the order TypeORM registers them. */
import { Author } from './author.entity';
import { Book } from './book.entity';
import { Review } from './review.entity';
import { Tag } from './tag.entity';

export { Author, Book, Review, Tag };
export const BOOKSTORE_ENTITIES = [Author, Tag, Book, Review];
