/** Fills an empty bookstore (no authors yet) with authors, ~30 books, tags and reviews on first start. */
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Author, Book, Review, Tag } from './entities';

const AUTHORS: ReadonlyArray<{ name: string; country: string | null; bornYear: number | null }> = [
  { name: 'Ursula K. Le Guin', country: 'US', bornYear: 1929 },
  { name: 'Stanisław Lem', country: 'PL', bornYear: 1921 },
  { name: 'Octavia E. Butler', country: 'US', bornYear: 1947 },
  { name: 'Italo Calvino', country: 'IT', bornYear: 1923 },
  { name: 'Jorge Luis Borges', country: 'AR', bornYear: 1899 },
  { name: 'Anonymous', country: null, bornYear: null },
];

/** [author index, title, pages, tag names]. */
const BOOKS: ReadonlyArray<readonly [number, string, number, readonly string[]]> = [
  [0, 'A Wizard of Earthsea', 183, ['fantasy', 'classic']],
  [0, 'The Left Hand of Darkness', 286, ['science-fiction', 'classic']],
  [0, 'The Dispossessed', 387, ['science-fiction', 'utopia']],
  [0, 'The Tombs of Atuan', 180, ['fantasy']],
  [0, 'The Farthest Shore', 223, ['fantasy']],
  [0, 'The Lathe of Heaven', 184, ['science-fiction']],
  [1, 'Solaris', 204, ['science-fiction', 'classic']],
  [1, 'The Cyberiad', 295, ['science-fiction', 'humour']],
  [1, 'His Master’s Voice', 199, ['science-fiction']],
  [1, 'The Futurological Congress', 149, ['science-fiction', 'humour']],
  [1, 'Fiasco', 322, ['science-fiction']],
  [1, 'The Star Diaries', 257, ['science-fiction', 'humour']],
  [2, 'Kindred', 264, ['historical', 'classic']],
  [2, 'Parable of the Sower', 345, ['science-fiction', 'dystopia']],
  [2, 'Parable of the Talents', 365, ['science-fiction', 'dystopia']],
  [2, 'Dawn', 248, ['science-fiction']],
  [2, 'Wild Seed', 297, ['fantasy']],
  [2, 'Fledgling', 310, ['fantasy']],
  [3, 'Invisible Cities', 165, ['classic', 'short-stories']],
  [3, 'If on a Winter’s Night a Traveler', 260, ['classic']],
  [3, 'The Baron in the Trees', 217, ['classic', 'historical']],
  [3, 'Cosmicomics', 153, ['short-stories', 'science-fiction']],
  [3, 'The Nonexistent Knight', 146, ['historical', 'humour']],
  [3, 'Italian Folktales', 763, ['fantasy', 'short-stories']],
  [4, 'Ficciones', 174, ['short-stories', 'classic']],
  [4, 'The Aleph', 160, ['short-stories', 'fantasy']],
  [4, 'Labyrinths', 256, ['short-stories']],
  [4, 'The Book of Sand', 125, ['short-stories', 'fantasy']],
  [4, 'Dreamtigers', 95, ['short-stories']],
  [5, 'Beowulf', 96, ['classic', 'fantasy']],
];

const REVIEWERS = ['ada', 'grace', 'linus', 'margaret', 'ken'];

@Injectable()
export class BookstoreSeeder implements OnApplicationBootstrap {
  /** What the last `seed()` inserted, as one line; undefined when the bookstore already had data. */
  seeded: string | undefined;

  constructor(private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    if ((await this.dataSource.getRepository(Author).count()) > 0) return;
    await this.seed();
  }

  /** Inserts the sample data in one transaction. */
  async seed(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const authors = await manager.save(
        Author,
        AUTHORS.map((author) => manager.create(Author, author)),
      );
      const tagNames = [...new Set(BOOKS.flatMap(([, , , tags]) => tags))].sort();
      const tags = await manager.save(
        Tag,
        tagNames.map((name) => manager.create(Tag, { name })),
      );
      const tagByName = new Map(tags.map((tag) => [tag.name, tag]));
      const books = await manager.save(
        Book,
        BOOKS.map(([author, title, pages, bookTags], index) =>
          manager.create(Book, {
            title,
            pages,
            isbn: `978-0-00-${String(100000 + index).padStart(6, '0')}-0`,
            rating: index % 7 === 6 ? null : 3 + ((index * 37) % 21) / 10,
            published: index % 5 !== 4,
            // What the store pays for a copy, in cents: only an admin reads it.
            supplierCost: 300 + pages * 2 + (index % 4) * 25,
            featured: index % 10 === 0,
            authorId: authors[author]!.id,
            tags: bookTags.map((name) => tagByName.get(name)!),
          }),
        ),
      );
      const reviews = books.flatMap((book, index) =>
        Array.from({ length: index % 3 }, (_, n) =>
          manager.create(Review, {
            bookId: book.id,
            rating: 1 + ((index + n * 2) % 5),
            reviewer: REVIEWERS[(index + n) % REVIEWERS.length]!,
            body: n === 0 ? `Notes on ${book.title}.` : null,
          }),
        ),
      );
      await manager.save(Review, reviews);
      this.seeded = `Seeded ${authors.length} authors, ${books.length} books, ${tags.length} tags, ${reviews.length} reviews.`;
    });
  }
}
