/** A reader's review of a book; deleted with its book. */
import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Book } from './book.entity';

@Entity('review')
export class Review {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int' }) bookId!: number;
  @ManyToOne(() => Book, (book) => book.reviews, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bookId' })
  book!: Book;
  /** 1 to 5 stars. */
  @Column({ type: 'int' }) rating!: number;
  @Column({ type: 'varchar', length: 80 }) reviewer!: string;
  @Column({ type: 'text', nullable: true }) body!: string | null;
  @CreateDateColumn() createdAt!: Date;
}
