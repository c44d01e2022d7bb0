/**
 * The bookstore's first schema on MySQL/MariaDB, as TypeORM's migration:generate wrote it; `up` first refuses tables
 * an older example made without it.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';
import { refuseTablesWithoutMigrations } from '../tables-without-migrations';

export class CreateBookstore1795863169911 implements MigrationInterface {
  name = 'CreateBookstore1795863169911';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await refuseTablesWithoutMigrations(queryRunner);
    await queryRunner.query(
      `CREATE TABLE \`author\` (\`id\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(100) NOT NULL, \`country\` varchar(2) NULL, \`bornYear\` int NULL, \`createdAt\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), UNIQUE INDEX \`IDX_d3962fd11a54d87f927e84d108\` (\`name\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`tag\` (\`id\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(40) NOT NULL, UNIQUE INDEX \`IDX_6a9775008add570dc3e5a0bab7\` (\`name\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`book\` (\`id\` int NOT NULL AUTO_INCREMENT, \`title\` varchar(200) NOT NULL, \`isbn\` varchar(20) NULL, \`pages\` int NOT NULL DEFAULT '0', \`rating\` float NULL, \`published\` tinyint NOT NULL DEFAULT 0, \`authorId\` int NULL, \`createdAt\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`updatedAt\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), \`deletedAt\` datetime(6) NULL, UNIQUE INDEX \`IDX_bd183604b9c828c0bdd92cafab\` (\`isbn\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`review\` (\`id\` int NOT NULL AUTO_INCREMENT, \`bookId\` int NOT NULL, \`rating\` int NOT NULL, \`reviewer\` varchar(80) NOT NULL, \`body\` text NULL, \`createdAt\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`book_tags\` (\`bookId\` int NOT NULL, \`tagId\` int NOT NULL, INDEX \`IDX_fb0dcd0aa910991f5b6e12545b\` (\`bookId\`), INDEX \`IDX_8ac2abe3c4afa41f2968ddd427\` (\`tagId\`), PRIMARY KEY (\`bookId\`, \`tagId\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `ALTER TABLE \`book\` ADD CONSTRAINT \`FK_66a4f0f47943a0d99c16ecf90b2\` FOREIGN KEY (\`authorId\`) REFERENCES \`author\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`review\` ADD CONSTRAINT \`FK_ae1ec2fd91f77b5df325d1c7b4a\` FOREIGN KEY (\`bookId\`) REFERENCES \`book\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`book_tags\` ADD CONSTRAINT \`FK_fb0dcd0aa910991f5b6e12545b8\` FOREIGN KEY (\`bookId\`) REFERENCES \`book\`(\`id\`) ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE \`book_tags\` ADD CONSTRAINT \`FK_8ac2abe3c4afa41f2968ddd4271\` FOREIGN KEY (\`tagId\`) REFERENCES \`tag\`(\`id\`) ON DELETE CASCADE ON UPDATE CASCADE`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`book_tags\` DROP FOREIGN KEY \`FK_8ac2abe3c4afa41f2968ddd4271\``);
    await queryRunner.query(`ALTER TABLE \`book_tags\` DROP FOREIGN KEY \`FK_fb0dcd0aa910991f5b6e12545b8\``);
    await queryRunner.query(`ALTER TABLE \`review\` DROP FOREIGN KEY \`FK_ae1ec2fd91f77b5df325d1c7b4a\``);
    await queryRunner.query(`ALTER TABLE \`book\` DROP FOREIGN KEY \`FK_66a4f0f47943a0d99c16ecf90b2\``);
    await queryRunner.query(`DROP INDEX \`IDX_8ac2abe3c4afa41f2968ddd427\` ON \`book_tags\``);
    await queryRunner.query(`DROP INDEX \`IDX_fb0dcd0aa910991f5b6e12545b\` ON \`book_tags\``);
    await queryRunner.query(`DROP TABLE \`book_tags\``);
    await queryRunner.query(`DROP TABLE \`review\``);
    await queryRunner.query(`DROP INDEX \`IDX_bd183604b9c828c0bdd92cafab\` ON \`book\``);
    await queryRunner.query(`DROP TABLE \`book\``);
    await queryRunner.query(`DROP INDEX \`IDX_6a9775008add570dc3e5a0bab7\` ON \`tag\``);
    await queryRunner.query(`DROP TABLE \`tag\``);
    await queryRunner.query(`DROP INDEX \`IDX_d3962fd11a54d87f927e84d108\` ON \`author\``);
    await queryRunner.query(`DROP TABLE \`author\``);
  }
}
