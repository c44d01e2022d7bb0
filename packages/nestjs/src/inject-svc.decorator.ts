/** `@InjectSvc(Entity)`: injects the entity's SvcService into any provider. */
import { Inject } from '@nestjs/common';
import { svcToken } from './svc.constants';

export function InjectSvc(entity: Function): PropertyDecorator & ParameterDecorator {
  return Inject(svcToken(entity));
}
