/** The tenancy app's entities, in the order TypeORM registers them. */
import { Project } from './project.entity';
import { Task } from './task.entity';

export { Project, Task };
export const TENANCY_ENTITIES = [Project, Task];
