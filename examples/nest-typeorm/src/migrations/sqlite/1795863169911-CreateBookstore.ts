/**
 * The bookstore's first schema on SQLite, as TypeORM's migration:generate wrote it; `up` first refuses tables
 * an older example made without it.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';
import { refuseTablesWithoutMigrations } from '../tables-without-migrations';

export class CreateBookstore1795863169911 implements MigrationInterface {
  name = 'CreateBookstore1795863169911';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await refuseTablesWithoutMigrations(queryRunner);
    await queryRunner.query(
      `CREATE TABLE "author" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(100) NOT NULL, "country" varchar(2), "bornYear" integer, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_d3962fd11a54d87f927e84d1080" UNIQUE ("name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "tag" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(40) NOT NULL, CONSTRAINT "UQ_6a9775008add570dc3e5a0bab7b" UNIQUE ("name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "book" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar(200) NOT NULL, "isbn" varchar(20), "pages" integer NOT NULL DEFAULT (0), "rating" float, "published" boolean NOT NULL DEFAULT (0), "authorId" integer, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), "updatedAt" datetime NOT NULL DEFAULT (datetime('now')), "deletedAt" datetime, CONSTRAINT "UQ_bd183604b9c828c0bdd92cafab7" UNIQUE ("isbn"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "review" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "bookId" integer NOT NULL, "rating" integer NOT NULL, "reviewer" varchar(80) NOT NULL, "body" text, "createdAt" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `CREATE TABLE "book_tags" ("bookId" integer NOT NULL, "tagId" integer NOT NULL, PRIMARY KEY ("bookId", "tagId"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_fb0dcd0aa910991f5b6e12545b" ON "book_tags" ("bookId") `);
    await queryRunner.query(`CREATE INDEX "IDX_8ac2abe3c4afa41f2968ddd427" ON "book_tags" ("tagId") `);
    await queryRunner.query(
      `CREATE TABLE "temporary_book" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar(200) NOT NULL, "isbn" varchar(20), "pages" integer NOT NULL DEFAULT (0), "rating" float, "published" boolean NOT NULL DEFAULT (0), "authorId" integer, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), "updatedAt" datetime NOT NULL DEFAULT (datetime('now')), "deletedAt" datetime, CONSTRAINT "UQ_bd183604b9c828c0bdd92cafab7" UNIQUE ("isbn"), CONSTRAINT "FK_66a4f0f47943a0d99c16ecf90b2" FOREIGN KEY ("authorId") REFERENCES "author" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_book"("id", "title", "isbn", "pages", "rating", "published", "authorId", "createdAt", "updatedAt", "deletedAt") SELECT "id", "title", "isbn", "pages", "rating", "published", "authorId", "createdAt", "updatedAt", "deletedAt" FROM "book"`,
    );
    await queryRunner.query(`DROP TABLE "book"`);
    await queryRunner.query(`ALTER TABLE "temporary_book" RENAME TO "book"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_review" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "bookId" integer NOT NULL, "rating" integer NOT NULL, "reviewer" varchar(80) NOT NULL, "body" text, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "FK_ae1ec2fd91f77b5df325d1c7b4a" FOREIGN KEY ("bookId") REFERENCES "book" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_review"("id", "bookId", "rating", "reviewer", "body", "createdAt") SELECT "id", "bookId", "rating", "reviewer", "body", "createdAt" FROM "review"`,
    );
    await queryRunner.query(`DROP TABLE "review"`);
    await queryRunner.query(`ALTER TABLE "temporary_review" RENAME TO "review"`);
    await queryRunner.query(`DROP INDEX "IDX_fb0dcd0aa910991f5b6e12545b"`);
    await queryRunner.query(`DROP INDEX "IDX_8ac2abe3c4afa41f2968ddd427"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_book_tags" ("bookId" integer NOT NULL, "tagId" integer NOT NULL, CONSTRAINT "FK_fb0dcd0aa910991f5b6e12545b8" FOREIGN KEY ("bookId") REFERENCES "book" ("id") ON DELETE CASCADE ON UPDATE CASCADE, CONSTRAINT "FK_8ac2abe3c4afa41f2968ddd4271" FOREIGN KEY ("tagId") REFERENCES "tag" ("id") ON DELETE CASCADE ON UPDATE CASCADE, PRIMARY KEY ("bookId", "tagId"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_book_tags"("bookId", "tagId") SELECT "bookId", "tagId" FROM "book_tags"`,
    );
    await queryRunner.query(`DROP TABLE "book_tags"`);
    await queryRunner.query(`ALTER TABLE "temporary_book_tags" RENAME TO "book_tags"`);
    await queryRunner.query(`CREATE INDEX "IDX_fb0dcd0aa910991f5b6e12545b" ON "book_tags" ("bookId") `);
    await queryRunner.query(`CREATE INDEX "IDX_8ac2abe3c4afa41f2968ddd427" ON "book_tags" ("tagId") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_8ac2abe3c4afa41f2968ddd427"`);
    await queryRunner.query(`DROP INDEX "IDX_fb0dcd0aa910991f5b6e12545b"`);
    await queryRunner.query(`ALTER TABLE "book_tags" RENAME TO "temporary_book_tags"`);
    await queryRunner.query(
      `CREATE TABLE "book_tags" ("bookId" integer NOT NULL, "tagId" integer NOT NULL, PRIMARY KEY ("bookId", "tagId"))`,
    );
    await queryRunner.query(
      `INSERT INTO "book_tags"("bookId", "tagId") SELECT "bookId", "tagId" FROM "temporary_book_tags"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_book_tags"`);
    await queryRunner.query(`CREATE INDEX "IDX_8ac2abe3c4afa41f2968ddd427" ON "book_tags" ("tagId") `);
    await queryRunner.query(`CREATE INDEX "IDX_fb0dcd0aa910991f5b6e12545b" ON "book_tags" ("bookId") `);
    await queryRunner.query(`ALTER TABLE "review" RENAME TO "temporary_review"`);
    await queryRunner.query(
      `CREATE TABLE "review" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "bookId" integer NOT NULL, "rating" integer NOT NULL, "reviewer" varchar(80) NOT NULL, "body" text, "createdAt" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `INSERT INTO "review"("id", "bookId", "rating", "reviewer", "body", "createdAt") SELECT "id", "bookId", "rating", "reviewer", "body", "createdAt" FROM "temporary_review"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_review"`);
    await queryRunner.query(`ALTER TABLE "book" RENAME TO "temporary_book"`);
    await queryRunner.query(
      `CREATE TABLE "book" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar(200) NOT NULL, "isbn" varchar(20), "pages" integer NOT NULL DEFAULT (0), "rating" float, "published" boolean NOT NULL DEFAULT (0), "authorId" integer, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), "updatedAt" datetime NOT NULL DEFAULT (datetime('now')), "deletedAt" datetime, CONSTRAINT "UQ_bd183604b9c828c0bdd92cafab7" UNIQUE ("isbn"))`,
    );
    await queryRunner.query(
      `INSERT INTO "book"("id", "title", "isbn", "pages", "rating", "published", "authorId", "createdAt", "updatedAt", "deletedAt") SELECT "id", "title", "isbn", "pages", "rating", "published", "authorId", "createdAt", "updatedAt", "deletedAt" FROM "temporary_book"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_book"`);
    await queryRunner.query(`DROP INDEX "IDX_8ac2abe3c4afa41f2968ddd427"`);
    await queryRunner.query(`DROP INDEX "IDX_fb0dcd0aa910991f5b6e12545b"`);
    await queryRunner.query(`DROP TABLE "book_tags"`);
    await queryRunner.query(`DROP TABLE "review"`);
    await queryRunner.query(`DROP TABLE "book"`);
    await queryRunner.query(`DROP TABLE "tag"`);
    await queryRunner.query(`DROP TABLE "author"`);
  }
}
