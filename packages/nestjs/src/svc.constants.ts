/** Injection tokens and metadata keys of the Nest binding. */

export const SVC_OPTIONS = Symbol.for('svc.options');
/** Property on a decorated controller that receives the registry by property injection. */
export const SVC_REGISTRY_PROPERTY = '__svcRegistry';

const tokens = new WeakMap<Function, symbol>();

/** The injection token of the service of an entity class (what `@InjectSvc(Entity)` injects). */
export function svcToken(entity: Function): symbol {
  let token = tokens.get(entity);
  if (!token) {
    token = Symbol(`SvcService<${entity.name}>`);
    tokens.set(entity, token);
  }
  return token;
}
