/** A task of one tenant, in one of that tenant's projects. */
import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Project } from './project.entity';

@Entity('tracker_task')
export class Task {
  @PrimaryGeneratedColumn() id!: number;
  /** Whose task it is: pinned from the caller's token on create, never written by a client. */
  @Column({ type: 'varchar', length: 40 }) tenantId!: string;
  /** The foreign key as a plain column: clients write `projectId`, and Svc checks it names a project in scope. */
  @Column({ type: 'int' }) projectId!: number;
  @ManyToOne(() => Project, (project) => project.tasks, { nullable: false, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'projectId' })
  project!: Project;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'boolean', default: false }) done!: boolean;
}
