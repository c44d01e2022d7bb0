/**
 * A book's supplier cost (only admins read it) and its `featured` flag (only admins write it) on SQLite, as
 * TypeORM's migration:generate wrote it. SQLite adds them by copying the table, which TypeORM's migration run does
 * with foreign keys off, so no review or tag link goes with the old table.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddBookSupplierCostAndFeatured1796680339567 implements MigrationInterface {
  name = 'AddBookSupplierCostAndFeatured1796680339567';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "temporary_book" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar(200) NOT NULL, "isbn" varchar(20), "pages" integer NOT NULL DEFAULT (0), "rating" float, "published" boolean NOT NULL DEFAULT (0), "authorId" integer, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), "updatedAt" datetime NOT NULL DEFAULT (datetime('now')), "deletedAt" datetime, "supplierCost" integer, "featured" boolean NOT NULL DEFAULT (0), CONSTRAINT "UQ_bd183604b9c828c0bdd92cafab7" UNIQUE ("isbn"), CONSTRAINT "FK_66a4f0f47943a0d99c16ecf90b2" FOREIGN KEY ("authorId") REFERENCES "author" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_book"("id", "title", "isbn", "pages", "rating", "published", "authorId", "createdAt", "updatedAt", "deletedAt") SELECT "id", "title", "isbn", "pages", "rating", "published", "authorId", "createdAt", "updatedAt", "deletedAt" FROM "book"`,
    );
    await queryRunner.query(`DROP TABLE "book"`);
    await queryRunner.query(`ALTER TABLE "temporary_book" RENAME TO "book"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "book" RENAME TO "temporary_book"`);
    await queryRunner.query(
      `CREATE TABLE "book" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar(200) NOT NULL, "isbn" varchar(20), "pages" integer NOT NULL DEFAULT (0), "rating" float, "published" boolean NOT NULL DEFAULT (0), "authorId" integer, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), "updatedAt" datetime NOT NULL DEFAULT (datetime('now')), "deletedAt" datetime, CONSTRAINT "UQ_bd183604b9c828c0bdd92cafab7" UNIQUE ("isbn"), CONSTRAINT "FK_66a4f0f47943a0d99c16ecf90b2" FOREIGN KEY ("authorId") REFERENCES "author" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "book"("id", "title", "isbn", "pages", "rating", "published", "authorId", "createdAt", "updatedAt", "deletedAt") SELECT "id", "title", "isbn", "pages", "rating", "published", "authorId", "createdAt", "updatedAt", "deletedAt" FROM "temporary_book"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_book"`);
  }
}
