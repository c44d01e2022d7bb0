/**
 * `@Override('<operation id>')` on a controller method: the method replaces that operation's handler, with the
 * controller's injected dependencies, and keeps the generated route (or gives a custom operation its behaviour).
 */
const overrides = new WeakMap<Function, Map<string, string | symbol>>();

export function Override(operation: string): MethodDecorator {
  return (prototype, method) => {
    const controller = prototype.constructor;
    const byOperation = overrides.get(controller) ?? new Map<string, string | symbol>();
    const previous = byOperation.get(operation);
    if (previous !== undefined && previous !== method) {
      throw new Error(
        `@Override('${operation}') is on both ${controller.name}.${String(previous)} and .${String(method)}; keep one.`,
      );
    }
    byOperation.set(operation, method);
    overrides.set(controller, byOperation);
  };
}

/** The `@Override` methods of a controller, by operation id. */
export function overridesOf(controller: Function): ReadonlyMap<string, string | symbol> {
  return overrides.get(controller) ?? new Map();
}
