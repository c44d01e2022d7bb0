/** A Conduit user: signs in with email and password, is shown to others as a profile, and follows other users. */
import { Column, Entity, JoinTable, ManyToMany, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', unique: true }) username!: string;
  @Column({ type: 'varchar', unique: true }) email!: string;
  /** scrypt's salt and hash (src/auth/password.ts); never served. */
  @Column({ type: 'varchar', name: 'password_hash' }) passwordHash!: string;
  @Column({ type: 'text', nullable: true }) bio!: string | null;
  @Column({ type: 'varchar', nullable: true }) image!: string | null;
  /** The users this one follows (`following`, on a profile, says whether the caller follows it). */
  @ManyToMany(() => User)
  @JoinTable({ name: 'follows', joinColumn: { name: 'follower_id' }, inverseJoinColumn: { name: 'followee_id' } })
  followees!: User[];
  /** Whether the caller follows this user: computed by Svc (`computed` in the profiles controller); no column. */
  readonly following?: boolean;
}
