import type { StoredUser } from '../../contract/user';
import type { VersionOverride, VersionSettings } from '../../contract/versions';
import { invalid } from '../../core/errors';

const LIMITS: Record<Exclude<keyof VersionSettings, 'enabled'>, [number, number]> = {
  maxAgeDays: [0, 36500],
  maxPerFile: [0, 1_000_000],
  maxBytesPerUser: [0, Number.MAX_SAFE_INTEGER],
  maxFreeSharePercent: [1, 100],
};

/**
 * Validates version settings (global `versions`, or a user's `versions` override): only the given fields, each
 * checked. Used by the settings and the user validation alike, so the API and the CLI accept the same values.
 */
export function normaliseVersions(v: unknown, name: string): VersionOverride {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid(`${name} must be an object`);
  const out: VersionOverride = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === 'enabled') {
      if (typeof x !== 'boolean') throw invalid(`${name}.enabled must be true or false`);
      out.enabled = x;
    } else if (k in LIMITS) {
      const [min, max] = LIMITS[k as keyof typeof LIMITS];
      if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) throw invalid(`${name}.${k} must be a whole number from ${min} to ${max}`);
      out[k as keyof typeof LIMITS] = x;
    } else throw invalid(`unknown settings field "${name}.${k}"`);
  }
  return out;
}

/** A user's override as stored: null when it sets nothing. */
export function normaliseVersionsOverride(v: unknown, name: string): VersionOverride | null {
  if (v === null || v === undefined || v === '') return null;
  const o = normaliseVersions(v, name);
  return Object.keys(o).length ? o : null;
}

/** The version settings that apply to a user: the global ones under the user's own override (none: the global). */
export function effectiveVersions(global: VersionSettings, user: Pick<StoredUser, 'versions'> | null): VersionSettings {
  return { ...global, ...(user?.versions ?? {}) };
}
