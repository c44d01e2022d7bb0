/** The settings an operation's own config entry carries: its scope in the settings chain. */
import type { SvcSettings } from '../config/svc-settings';

const SETTINGS_KEYS = ['pagination', 'errors', 'cache', 'delete', 'realtime', 'identifier'] as const;

/** The settings keys of an operation's config entry, without its other keys (policy, handler, schema). */
export function pickSettings(opConfig: object): SvcSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTINGS_KEYS) if (key in opConfig) out[key] = (opConfig as Record<string, unknown>)[key];
  return out as SvcSettings;
}
