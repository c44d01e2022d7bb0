/** Asserts that `work` throws a ConfigurationException and returns it for further checks. */
import { ConfigurationException } from '@svc/core';

export function configErrorOf(work: () => unknown): ConfigurationException {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationException);
    return error as ConfigurationException;
  }
  throw new Error('expected a ConfigurationException, but nothing was thrown');
}

/** Asserts the exception's code, entity, key path, and that its message names each of `mentions`. */
export function expectConfigError(
  work: () => unknown,
  expected: { entity?: string; path?: string; mentions?: readonly (string | RegExp)[] },
): ConfigurationException {
  const error = configErrorOf(work);
  expect(error.code).toBe('SVC_CONFIG_INVALID');
  if (expected.entity !== undefined) {
    expect(error.entity).toBe(expected.entity);
    expect(error.message).toContain(expected.entity);
  }
  if (expected.path !== undefined) {
    expect(error.path).toBe(expected.path);
    expect(error.message).toContain(expected.path);
  }
  for (const mention of expected.mentions ?? []) {
    if (typeof mention === 'string') expect(error.message).toContain(mention);
    else expect(error.message).toMatch(mention);
  }
  return error;
}
