/** A book: soft-deleted (it has a delete-date column), so Svc serves restore and purge routes for it. */
import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  JoinColumn,
  JoinTable,
  ManyToMany,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Author } from './author.entity';
import type { Review } from './review.entity';
import { Tag } from './tag.entity';

@Entity('book')
export class Book {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'varchar', length: 20, nullable: true, unique: true }) isbn!: string | null;
  @Column({ type: 'int', default: 0 }) pages!: number;
  @Column({ type: 'float', nullable: true }) rating!: number | null;
  @Column({ type: 'boolean', default: false }) published!: boolean;
  /** What the store pays its supplier for one copy, in cents: staff only, readers and editors never see it. */
  @Column({ type: 'int', nullable: true }) supplierCost!: number | null;
  /** On the store's front page: only an admin sets it. */
  @Column({ type: 'boolean', default: false }) featured!: boolean;
  /** The foreign key as a plain column: clients write `authorId`. */
  @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => Author, (author) => author.books, { nullable: true, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'authorId' })
  author!: Author | null;
  @ManyToMany(() => Tag) @JoinTable({ name: 'book_tags' }) tags!: Tag[];
  @OneToMany('Review', (review: Review) => review.book) reviews!: Review[];
  @CreateDateColumn() createdAt!: Date;
  @UpdateDateColumn() updatedAt!: Date;
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}
