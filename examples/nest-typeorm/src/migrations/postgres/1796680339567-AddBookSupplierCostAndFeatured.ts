/**
 * A book's supplier cost (only admins read it) and its `featured` flag (only admins write it) on PostgreSQL, as
 * TypeORM's migration:generate wrote it.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddBookSupplierCostAndFeatured1796680339567 implements MigrationInterface {
  name = 'AddBookSupplierCostAndFeatured1796680339567';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "book" ADD "supplierCost" integer`);
    await queryRunner.query(`ALTER TABLE "book" ADD "featured" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "book" DROP COLUMN "featured"`);
    await queryRunner.query(`ALTER TABLE "book" DROP COLUMN "supplierCost"`);
  }
}
