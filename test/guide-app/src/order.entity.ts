/** An order of one shop (the tenant), which only that shop's callers may see. */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('orders')
export class Order {
  @PrimaryGeneratedColumn() id!: number;
  /** The shop the order belongs to: taken from the caller's token, never from the body. */
  @Column({ type: 'varchar', length: 40 }) tenant!: string;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'int', default: 1 }) quantity!: number;
}
