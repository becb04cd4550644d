import { invalid } from '../../core/errors';
import { parseDuration } from '../../core/duration';

/**
 * A point in time given by a person or a script: a duration back from now ("2d", "90m", "1h30m"), a date or
 * date-time ("2024-05-01", "2024-05-01T12:00:00Z"), or unix milliseconds. Anything else is a 400.
 */
export function parseTimeBound(text: string, name: string, now = Date.now()): number {
  const s = text.trim();
  if (/^\d{10,15}$/.test(s)) return Number(s);
  const back = /^\d/.test(s) && !/^\d{4}-/.test(s) ? parseDuration(s) : null;
  if (back !== null) return now - back;
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s)) {
    const t = Date.parse(s);
    if (Number.isFinite(t)) return t;
  }
  throw invalid(`${name} must be a duration back from now (2d, 12h, 30m), a date (2024-05-01) or unix milliseconds`);
}
