/**
 * The bookstore's first schema on PostgreSQL, as TypeORM's migration:generate wrote it; `up` first refuses tables
 * an older example made without it.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';
import { refuseTablesWithoutMigrations } from '../tables-without-migrations';

export class CreateBookstore1795863169911 implements MigrationInterface {
  name = 'CreateBookstore1795863169911';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await refuseTablesWithoutMigrations(queryRunner);
    await queryRunner.query(
      `CREATE TABLE "author" ("id" SERIAL NOT NULL, "name" character varying(100) NOT NULL, "country" character varying(2), "bornYear" integer, "createdAt" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT "UQ_d3962fd11a54d87f927e84d1080" UNIQUE ("name"), CONSTRAINT "PK_5a0e79799d372fe56f2f3fa6871" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "tag" ("id" SERIAL NOT NULL, "name" character varying(40) NOT NULL, CONSTRAINT "UQ_6a9775008add570dc3e5a0bab7b" UNIQUE ("name"), CONSTRAINT "PK_8e4052373c579afc1471f526760" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "book" ("id" SERIAL NOT NULL, "title" character varying(200) NOT NULL, "isbn" character varying(20), "pages" integer NOT NULL DEFAULT '0', "rating" double precision, "published" boolean NOT NULL DEFAULT false, "authorId" integer, "createdAt" TIMESTAMP NOT NULL DEFAULT now(), "updatedAt" TIMESTAMP NOT NULL DEFAULT now(), "deletedAt" TIMESTAMP, CONSTRAINT "UQ_bd183604b9c828c0bdd92cafab7" UNIQUE ("isbn"), CONSTRAINT "PK_a3afef72ec8f80e6e5c310b28a4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "review" ("id" SERIAL NOT NULL, "bookId" integer NOT NULL, "rating" integer NOT NULL, "reviewer" character varying(80) NOT NULL, "body" text, "createdAt" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT "PK_2e4299a343a81574217255c00ca" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "book_tags" ("bookId" integer NOT NULL, "tagId" integer NOT NULL, CONSTRAINT "PK_e150bf8feac063853c2f7397b61" PRIMARY KEY ("bookId", "tagId"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_fb0dcd0aa910991f5b6e12545b" ON "book_tags" ("bookId") `);
    await queryRunner.query(`CREATE INDEX "IDX_8ac2abe3c4afa41f2968ddd427" ON "book_tags" ("tagId") `);
    await queryRunner.query(
      `ALTER TABLE "book" ADD CONSTRAINT "FK_66a4f0f47943a0d99c16ecf90b2" FOREIGN KEY ("authorId") REFERENCES "author"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "review" ADD CONSTRAINT "FK_ae1ec2fd91f77b5df325d1c7b4a" FOREIGN KEY ("bookId") REFERENCES "book"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "book_tags" ADD CONSTRAINT "FK_fb0dcd0aa910991f5b6e12545b8" FOREIGN KEY ("bookId") REFERENCES "book"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "book_tags" ADD CONSTRAINT "FK_8ac2abe3c4afa41f2968ddd4271" FOREIGN KEY ("tagId") REFERENCES "tag"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "book_tags" DROP CONSTRAINT "FK_8ac2abe3c4afa41f2968ddd4271"`);
    await queryRunner.query(`ALTER TABLE "book_tags" DROP CONSTRAINT "FK_fb0dcd0aa910991f5b6e12545b8"`);
    await queryRunner.query(`ALTER TABLE "review" DROP CONSTRAINT "FK_ae1ec2fd91f77b5df325d1c7b4a"`);
    await queryRunner.query(`ALTER TABLE "book" DROP CONSTRAINT "FK_66a4f0f47943a0d99c16ecf90b2"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8ac2abe3c4afa41f2968ddd427"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_fb0dcd0aa910991f5b6e12545b"`);
    await queryRunner.query(`DROP TABLE "book_tags"`);
    await queryRunner.query(`DROP TABLE "review"`);
    await queryRunner.query(`DROP TABLE "book"`);
    await queryRunner.query(`DROP TABLE "tag"`);
    await queryRunner.query(`DROP TABLE "author"`);
  }
}
