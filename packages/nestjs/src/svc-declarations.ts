/** What `@Svc` recorded: the entity and config of each decorated controller, known before any module boots. */
import type { EntityConfig } from '@svc/core';

export interface SvcDeclaration {
  readonly controller: Function;
  readonly entity: Function;
  readonly config: EntityConfig;
}

const declarations = new Map<Function, SvcDeclaration>();

export function recordDeclaration(declaration: SvcDeclaration): void {
  declarations.set(declaration.controller, declaration);
}

export function declarationOf(controller: Function): SvcDeclaration | undefined {
  return declarations.get(controller);
}

/** Every declared entity so far, for `@InjectSvc` providers. */
export function declaredEntities(): Function[] {
  return [...new Set([...declarations.values()].map((declaration) => declaration.entity))];
}
