/** An article: found by its slug, written by one user, tagged, and favorited by users. */
import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  JoinTable,
  ManyToMany,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Tag } from './tag.entity';
import { User } from './user.entity';

@Entity('articles')
export class Article {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', unique: true }) slug!: string;
  @Column({ type: 'varchar' }) title!: string;
  @Column({ type: 'varchar' }) description!: string;
  @Column({ type: 'text' }) body!: string;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at' }) updatedAt!: Date;
  /** The author's key, as its own column: what the policy compares with the caller. */
  @Column({ type: 'int', name: 'author_id' }) authorId!: number;
  @ManyToOne(() => User, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'author_id' })
  author!: User;
  @ManyToMany(() => Tag)
  @JoinTable({ name: 'article_tags', joinColumn: { name: 'article_id' }, inverseJoinColumn: { name: 'tag_id' } })
  tagList!: Tag[];
  @ManyToMany(() => User)
  @JoinTable({ name: 'favorites', joinColumn: { name: 'article_id' }, inverseJoinColumn: { name: 'user_id' } })
  favoritedBy!: User[];
  /** Computed for the caller by Svc (`computed` in the articles controller); no column. */
  readonly favorited?: boolean;
  readonly favoritesCount?: number;
}
