/** A project of one tenant: has many tasks. */
import { Column, Entity, OneToMany, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { Task } from './task.entity';

// Unique per tenant, not across tenants: a name taken by another tenant must stay free here, or a 409 would tell one
// tenant what another has named its projects.
@Entity('tracker_project')
@Unique('tracker_project_tenant_name', ['tenantId', 'name'])
export class Project {
  @PrimaryGeneratedColumn() id!: number;
  /** Whose project it is: pinned from the caller's token on create, never written by a client. */
  @Column({ type: 'varchar', length: 40 }) tenantId!: string;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @OneToMany('Task', (task: Task) => task.project) tasks!: Task[];
}
