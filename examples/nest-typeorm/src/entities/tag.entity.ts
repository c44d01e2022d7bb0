/** A tag books carry (many-to-many, owned by Book). */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('tag')
export class Tag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40, unique: true }) name!: string;
}
