import { fetchResource, fetchTree } from '../api/resources';
import { files, listingItems } from '../state/files.state';
import { showError } from '../state/notices.state';
import { showPrompt } from '../state/prompts.state';
import { enqueueUploads, type UploadEntry } from '../state/upload.state';

const topOf = (rel: string) => rel.replace(/^\/+/, '').split('/')[0] ?? '';

/** "report.pdf" → "report(1).pdf", "dir" → "dir(1)": the first name not in `taken` (the server's convention). */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = `${stem}(${n})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The names directly inside `base`: the listing on show when it is that folder, else fetched. */
async function namesIn(base: string): Promise<{ name: string; isDir: boolean }[]> {
  const here = files.resource?.isDir && `${files.resource.path.replace(/\/$/, '')}/` === base;
  const items = here ? listingItems() : ((await fetchResource(base)).items ?? []);
  return items.map((i) => ({ name: i.name, isDir: i.isDir }));
}

/**
 * Which top-level names of the upload clash with what `base` holds. A folder meeting a folder of the same name
 * is merged, so it clashes only when one of its files already exists there (GET /api/tree).
 */
async function conflicts(entries: readonly UploadEntry[], base: string, existing: { name: string; isDir: boolean }[]): Promise<string[]> {
  const byName = new Map(existing.map((e) => [e.name, e.isDir]));
  const out: string[] = [];
  for (const top of new Set(entries.map((e) => topOf(e.relPath)))) {
    if (!byName.has(top)) continue;
    const inside = entries.filter((e) => topOf(e.relPath) === top && !e.isDir && e.relPath.replace(/^\/+/, '').includes('/'));
    const uploadIsFolder = entries.some((e) => topOf(e.relPath) === top && (e.isDir || e.relPath.replace(/^\/+/, '').includes('/')));
    if (!uploadIsFolder || !byName.get(top)) {
      out.push(top);
      continue;
    }
    const tree = await fetchTree(base + top);
    const have = new Set(tree.filter((t) => !t.isDir).map((t) => t.path));
    if (inside.some((e) => have.has(base + e.relPath.replace(/^\/+/, '')))) out.push(top);
  }
  return out;
}

/** Renames the clashing top-level items to free names, so the upload keeps both versions. */
function renamed(entries: readonly UploadEntry[], clashing: string[], existing: { name: string }[]): UploadEntry[] {
  const taken = new Set([...existing.map((e) => e.name), ...entries.map((e) => topOf(e.relPath))]);
  const map = new Map<string, string>();
  for (const name of clashing) {
    const free = freeName(name, taken);
    taken.add(free);
    map.set(name, free);
  }
  return entries.map((e) => {
    const rel = e.relPath.replace(/^\/+/, '');
    const top = topOf(rel);
    const to = map.get(top);
    return to ? { ...e, relPath: to + rel.slice(top.length) } : e;
  });
}

/**
 * Uploads into `base` (decoded folder path ending in '/'). On a name clash the replace prompt asks whether to
 * replace the existing items (override) or to keep both (the new ones get free names).
 */
export async function uploadInto(entries: readonly UploadEntry[], base: string): Promise<void> {
  if (!entries.length) return;
  try {
    const existing = await namesIn(base);
    const clashing = await conflicts(entries, base, existing);
    if (!clashing.length) return enqueueUploads(entries, base, false);
    showPrompt('replace', {
      names: clashing,
      onReplace: () => enqueueUploads(entries, base, true),
      onRename: () => enqueueUploads(renamed(entries, clashing, existing), base, false),
    });
  } catch (e) {
    showError(e);
  }
}

/** Files picked with the chooser: a folder pick carries each file's path below the folder (webkitRelativePath). */
export function entriesFromInput(list: FileList): UploadEntry[] {
  return Array.from(list, (file) => ({ relPath: file.webkitRelativePath || file.name, isDir: false, file }));
}
