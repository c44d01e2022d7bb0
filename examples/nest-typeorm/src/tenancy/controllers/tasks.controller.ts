/**
 * `/tasks`: a tenant's tasks, filterable by their project's name, with their project on `include=project`, and every
 * committed write an event on `GET /tasks/events`.
 */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Task } from '../entities/task.entity';
import { tenantScoped } from '../tenant-scoped';

@Svc(
  Task,
  tenantScoped({
    writable: ['title', 'done', 'projectId'],
    filter: { fields: ['title', 'done', 'projectId', 'project.name'] },
    sort: { default: ['id'] },
    include: { fields: ['project'] },
    realtime: {},
  }),
)
@Controller('tasks')
export class TasksController {}
