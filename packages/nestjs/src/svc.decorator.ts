/** `@Svc(Entity, config)`: declares the entity of a controller and generates its standard routes. */
import { Inject } from '@nestjs/common';
import type { EntityConfig, EntityTarget } from '@svc/core';
import { recordDeclaration } from './svc-declarations';
import { SvcRegistry } from './svc-registry';
import { defineRoutes } from './svc-routes';
import { useProblemDetailsFilter } from './problem-details.filter';
import { SVC_REGISTRY_PROPERTY } from './svc.constants';

/**
 * Declares `entity` as the controller's and generates its routes. The config is typed by the entity's class: each
 * field list takes only its fields and one-hop paths (`filter.fields: ['titel']` fails to compile, naming it).
 */
export function Svc<T = unknown>(entity: EntityTarget<T>, config: EntityConfig<T> = {}): ClassDecorator {
  return (controller) => {
    recordDeclaration({ controller, entity, config: config as EntityConfig });
    Inject(SvcRegistry)(controller.prototype, SVC_REGISTRY_PROPERTY);
    defineRoutes(controller, config as EntityConfig);
    useProblemDetailsFilter(controller);
  };
}
