/** An author: has many books. */
import { Column, CreateDateColumn, Entity, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import type { Book } from './book.entity';

@Entity('author')
export class Author {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 100, unique: true }) name!: string;
  /** ISO 3166-1 alpha-2 country code. */
  @Column({ type: 'varchar', length: 2, nullable: true }) country!: string | null;
  @Column({ type: 'int', nullable: true }) bornYear!: number | null;
  @CreateDateColumn() createdAt!: Date;
  @OneToMany('Book', (book: Book) => book.author) books!: Book[];
}
