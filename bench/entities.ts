/** The benchmark's own entities: the example's author/book shape, in tables of their own (`bench_*`). */
import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

@Entity('bench_author')
export class BenchAuthor {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @Column({ type: 'varchar', length: 2, nullable: true }) country!: string | null;
}

/** Soft-deleted like the example's Book, so both apps read through the `deletedAt IS NULL` condition. */
@Entity('bench_book')
export class BenchBook {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'int', default: 0 }) pages!: number;
  @Column({ type: 'float', nullable: true }) rating!: number | null;
  @Column({ type: 'boolean', default: false }) published!: boolean;
  @Index() @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => BenchAuthor, { nullable: true, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'authorId' })
  author!: BenchAuthor | null;
  @CreateDateColumn() createdAt!: Date;
  @UpdateDateColumn() updatedAt!: Date;
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}

/**
 * The `custom-read` scenario's condition, `pages < 300`: the books both apps' custom read returns, cheapest first
 * (2,780 of the 10,000 seeded books, whose pages run 50 ... 949).
 */
export const CHEAP_PAGES_BELOW = 300;

export const BENCH_ENTITIES = [BenchAuthor, BenchBook];
