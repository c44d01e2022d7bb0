/** `@Svc(Entity, config)`: declares the entity of a controller and generates its standard routes. */
import { Inject } from '@nestjs/common';
import type { EntityConfig } from '@svc/core';
import { recordDeclaration } from './svc-declarations';
import { SvcRegistry } from './svc-registry';
import { defineRoutes } from './svc-routes';
import { useProblemDetailsFilter } from './problem-details.filter';
import { SVC_REGISTRY_PROPERTY } from './svc.constants';

export function Svc(entity: Function, config: EntityConfig = {}): ClassDecorator {
  return (controller) => {
    recordDeclaration({ controller, entity, config });
    Inject(SvcRegistry)(controller.prototype, SVC_REGISTRY_PROPERTY);
    defineRoutes(controller, config);
    useProblemDetailsFilter(controller);
  };
}
