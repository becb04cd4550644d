import { ARCHIVE_FORMATS, type ArchiveFormat } from '../../contract/archive';
import { JOB_CONFLICTS, JOB_KINDS, type JobConflict, type JobKind, type JobRequest } from '../../contract/job';
import { invalid } from '../../core/errors';
import { toVirtualPath } from '../../fs/virtual-path';

/** One job handles at most this many selected items (a folder counts as one, whatever it holds). */
export const MAX_ITEMS = 10_000;

export type ValidRequest = JobRequest & { kind: JobKind; items: string[]; conflict: JobConflict };

const path = (v: unknown, name: string) => {
  if (typeof v !== 'string' || !v) throw invalid(`${name} must be a path`);
  return toVirtualPath(v).path;
};

/**
 * Validates the body of POST /api/jobs: a known kind, canonical paths (the one virtual-path parser), a destination
 * where the kind needs one, and the conflict choice made up front (keep both by default: nothing is ever replaced
 * unless asked).
 */
export function parseJobRequest(body: unknown): ValidRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('the job must be a JSON object');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!['kind', 'items', 'destination', 'conflict', 'format', 'name', 'permanent'].includes(k)) throw invalid(`unknown job field "${k}"`);
  if (!(JOB_KINDS as readonly unknown[]).includes(b.kind)) throw invalid(`kind must be one of ${JOB_KINDS.join(', ')}`);
  const kind = b.kind as JobKind;
  if (!Array.isArray(b.items) || !b.items.length) throw invalid('items must be a non-empty list of paths');
  if (b.items.length > MAX_ITEMS) throw invalid(`a job takes at most ${MAX_ITEMS} items`);
  const items = [...new Set(b.items.map((p, i) => path(p, `items[${i}]`)))];
  if (items.includes('/') && kind !== 'archive') throw invalid('the scope root cannot be copied, moved, deleted or extracted');
  if (kind === 'extract' && items.length !== 1) throw invalid('an extraction takes exactly one archive');
  const conflict = (b.conflict ?? 'rename') as JobConflict;
  if (!(JOB_CONFLICTS as readonly unknown[]).includes(conflict)) throw invalid(`conflict must be one of ${JOB_CONFLICTS.join(', ')}`);
  const req: ValidRequest = { kind, items, conflict };
  if (kind === 'copy' || kind === 'move' || kind === 'archive') req.destination = path(b.destination, 'destination');
  else if (kind === 'extract' && b.destination !== undefined) req.destination = path(b.destination, 'destination');
  else if (b.destination !== undefined) throw invalid('a delete takes no destination');
  if (b.format !== undefined) {
    if (kind !== 'archive' || !(ARCHIVE_FORMATS as readonly unknown[]).includes(b.format)) throw invalid(`format is for archives: one of ${ARCHIVE_FORMATS.join(', ')}`);
    req.format = b.format as ArchiveFormat;
  }
  if (b.name !== undefined) {
    if (kind !== 'archive' || typeof b.name !== 'string' || !b.name || b.name.includes('/') || b.name === '.' || b.name === '..' || Buffer.byteLength(b.name) > 255)
      throw invalid('name is an archive\'s plain file name');
    req.name = b.name;
  }
  if (b.permanent !== undefined) {
    if (kind !== 'delete' || typeof b.permanent !== 'boolean') throw invalid('permanent is true or false, for deletes');
    req.permanent = b.permanent;
  }
  return req;
}
