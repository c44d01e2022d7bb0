/**
 * The Conduit schema on SQLite: the tables TypeORM's migration:generate writes for the entities, each foreign key in
 * its CREATE TABLE, and the date columns' defaults to the millisecond (`datetime('now')` has whole seconds).
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const NOW_MS = `(strftime('%Y-%m-%d %H:%M:%f', 'now'))`;

export class CreateConduit1797000000000 implements MigrationInterface {
  name = 'CreateConduit1797000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "users" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "username" varchar NOT NULL, "email" varchar NOT NULL, "password_hash" varchar NOT NULL, "bio" text, "image" varchar, CONSTRAINT "UQ_fe0bb3f6520ee0469504521e710" UNIQUE ("username"), CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "tags" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar NOT NULL, CONSTRAINT "UQ_d90243459a697eadb8ad56e9092" UNIQUE ("name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "articles" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "slug" varchar NOT NULL, "title" varchar NOT NULL, "description" varchar NOT NULL, "body" text NOT NULL, "created_at" datetime NOT NULL DEFAULT ${NOW_MS}, "updated_at" datetime NOT NULL DEFAULT ${NOW_MS}, "author_id" integer NOT NULL, CONSTRAINT "UQ_1123ff6815c5b8fec0ba9fec370" UNIQUE ("slug"), CONSTRAINT "FK_6515da4dff8db423ce4eb841490" FOREIGN KEY ("author_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE TABLE "comments" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "body" text NOT NULL, "created_at" datetime NOT NULL DEFAULT ${NOW_MS}, "updated_at" datetime NOT NULL DEFAULT ${NOW_MS}, "article_id" integer NOT NULL, "author_id" integer NOT NULL, CONSTRAINT "FK_e9b498cca509147e73808f9e593" FOREIGN KEY ("article_id") REFERENCES "articles" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_e6d38899c31997c45d128a8973b" FOREIGN KEY ("author_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE TABLE "follows" ("follower_id" integer NOT NULL, "followee_id" integer NOT NULL, CONSTRAINT "FK_54b5dc2739f2dea57900933db66" FOREIGN KEY ("follower_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE, CONSTRAINT "FK_1984b177379388946c21afcdaa9" FOREIGN KEY ("followee_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE, PRIMARY KEY ("follower_id", "followee_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_54b5dc2739f2dea57900933db6" ON "follows" ("follower_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_1984b177379388946c21afcdaa" ON "follows" ("followee_id") `);
    await queryRunner.query(
      `CREATE TABLE "article_tags" ("article_id" integer NOT NULL, "tag_id" integer NOT NULL, CONSTRAINT "FK_f8c9234a4c4cb37806387f0c9e9" FOREIGN KEY ("article_id") REFERENCES "articles" ("id") ON DELETE CASCADE ON UPDATE CASCADE, CONSTRAINT "FK_1325dd0b98ee0f8f673db6ce194" FOREIGN KEY ("tag_id") REFERENCES "tags" ("id") ON DELETE CASCADE ON UPDATE CASCADE, PRIMARY KEY ("article_id", "tag_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_f8c9234a4c4cb37806387f0c9e" ON "article_tags" ("article_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_1325dd0b98ee0f8f673db6ce19" ON "article_tags" ("tag_id") `);
    await queryRunner.query(
      `CREATE TABLE "favorites" ("article_id" integer NOT NULL, "user_id" integer NOT NULL, CONSTRAINT "FK_0d2b1e08e4e234e10a0e5ff5fc5" FOREIGN KEY ("article_id") REFERENCES "articles" ("id") ON DELETE CASCADE ON UPDATE CASCADE, CONSTRAINT "FK_35a6b05ee3b624d0de01ee50593" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE, PRIMARY KEY ("article_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_0d2b1e08e4e234e10a0e5ff5fc" ON "favorites" ("article_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_35a6b05ee3b624d0de01ee5059" ON "favorites" ("user_id") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['favorites', 'article_tags', 'follows', 'comments', 'articles', 'tags', 'users']) {
      await queryRunner.query(`DROP TABLE "${table}"`);
    }
  }
}
