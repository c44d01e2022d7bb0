/** A tag's name, shared by every article that carries it. */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('tags')
export class Tag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', unique: true }) name!: string;
}
