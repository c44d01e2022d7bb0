/** A book of the shared catalogue, which anyone may read. */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity()
export class Book {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'int', default: 0 }) pages!: number;
}
