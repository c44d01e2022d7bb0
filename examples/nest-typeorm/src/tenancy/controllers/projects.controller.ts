/** `/projects`: a tenant's projects, each with its tasks on `include=tasks`; lists cached per tenant for 30 s. */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { Project } from '../entities/project.entity';
import { tenantScoped } from '../tenant-scoped';

@Svc(
  Project,
  tenantScoped({
    writable: ['name'],
    sort: { default: ['name'] },
    include: { fields: ['tasks'] },
    // Read on every page and rarely written: cached, in one partition per tenant (the module's cacheKey).
    cache: { ttl: 30 },
  }),
)
@Controller('projects')
export class ProjectsController {}
