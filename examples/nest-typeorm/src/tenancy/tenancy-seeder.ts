/** Fills an empty tracker (no projects yet) with two tenants, `acme` and `globex`, on first start. */
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Project, Task } from './entities';

/** Per tenant: project name -> [task title, done]. Both tenants have a `Website`, to show names are per tenant. */
const TENANTS: Readonly<Record<string, Readonly<Record<string, readonly (readonly [string, boolean])[]>>>> = {
  acme: {
    Website: [
      ['Draft the home page', false],
      ['Pick a font', true],
    ],
    'Rocket sled': [['Order the rockets', false]],
  },
  globex: {
    Website: [['Buy the domain', true]],
    'Doomsday device': [
      ['Hire a henchman', false],
      ['Build the device', false],
    ],
  },
};

@Injectable()
export class TenancySeeder implements OnApplicationBootstrap {
  /** What the last `seed()` inserted, as one line; undefined when the tracker already had data. */
  seeded: string | undefined;

  constructor(private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    if ((await this.dataSource.getRepository(Project).count()) > 0) return;
    await this.seed();
  }

  /** Inserts the sample data in one transaction. */
  async seed(): Promise<void> {
    let projects = 0;
    let tasks = 0;
    await this.dataSource.transaction(async (manager) => {
      for (const [tenantId, byProject] of Object.entries(TENANTS)) {
        for (const [name, titles] of Object.entries(byProject)) {
          const project = await manager.save(Project, manager.create(Project, { tenantId, name }));
          await manager.save(
            Task,
            titles.map(([title, done]) => manager.create(Task, { tenantId, projectId: project.id, title, done })),
          );
          projects += 1;
          tasks += titles.length;
        }
      }
    });
    this.seeded = `Seeded ${Object.keys(TENANTS).join(' and ')}: ${projects} projects, ${tasks} tasks.`;
  }
}
