import type { TrashOverride, TrashSettings } from '../../contract/trash';
import type { StoredUser } from '../../contract/user';
import { invalid } from '../../core/errors';

const MAX_DAYS = 36500;
const MAX_BYTES = Number.MAX_SAFE_INTEGER;

/**
 * Validates trash settings (global `trash`, or a user's `trash` override): only the given fields, each checked.
 * Used by the settings and the user validation alike, so the API and the CLI accept the same values.
 */
export function normaliseTrash(v: unknown, name: string): TrashOverride {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid(`${name} must be an object`);
  const out: TrashOverride = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === 'enabled') {
      if (typeof x !== 'boolean') throw invalid(`${name}.enabled must be true or false`);
      out.enabled = x;
    } else if (k === 'retentionDays' || k === 'maxBytes') {
      const max = k === 'retentionDays' ? MAX_DAYS : MAX_BYTES;
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > max) throw invalid(`${name}.${k} must be a whole number from 0 to ${max}`);
      out[k] = x;
    } else throw invalid(`unknown settings field "${name}.${k}"`);
  }
  return out;
}

/** A user's override as stored: null when it sets nothing. */
export function normaliseTrashOverride(v: unknown, name: string): TrashOverride | null {
  if (v === null || v === undefined || v === '') return null;
  const o = normaliseTrash(v, name);
  return Object.keys(o).length ? o : null;
}

/** The trash settings that apply to a user: the global ones, under the user's own override. */
export function effectiveTrash(global: TrashSettings, user: Pick<StoredUser, 'trash'> | null): TrashSettings {
  return { ...global, ...(user?.trash ?? {}) };
}
