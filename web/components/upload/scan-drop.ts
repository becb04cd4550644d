import type { UploadEntry } from '../../state/upload.state';

/**
 * What a drop carried, read synchronously inside the drop event (the browser empties the DataTransfer as soon as
 * the handler returns): the file-system entries when the browser offers them, and the plain files.
 */
export interface DropContents {
  entries: FileSystemEntry[] | null;
  files: File[];
}

export function captureDrop(dt: DataTransfer): DropContents {
  const files = Array.from(dt.files);
  const items = Array.from(dt.items ?? []).filter((i) => i.kind === 'file');
  const entries = items.map((i) => (typeof i.webkitGetAsEntry === 'function' ? i.webkitGetAsEntry() : null));
  return { entries: entries.length && entries.every((e) => e !== null) ? (entries as FileSystemEntry[]) : null, files };
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));
const readBatch = (reader: FileSystemDirectoryReader) => new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));

async function walk(entry: FileSystemEntry, prefix: string, out: UploadEntry[]): Promise<void> {
  const rel = prefix + entry.name;
  if (entry.isFile) {
    out.push({ relPath: rel, isDir: false, file: await fileOf(entry as FileSystemFileEntry) });
    return;
  }
  if (!entry.isDirectory) return;
  // The folder itself is a job too, so empty folders arrive as well.
  out.push({ relPath: `${rel}/`, isDir: true, file: null });
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (let batch = await readBatch(reader); batch.length; batch = await readBatch(reader)) {
    for (const child of batch) await walk(child, `${rel}/`, out);
  }
}

/** Everything a drop carried, folders walked recursively, as upload entries relative to the drop target. */
export async function dropEntries(drop: DropContents): Promise<UploadEntry[]> {
  if (!drop.entries) return drop.files.map((file) => ({ relPath: file.name, isDir: false, file }));
  const out: UploadEntry[] = [];
  for (const entry of drop.entries) await walk(entry, '', out);
  return out;
}
