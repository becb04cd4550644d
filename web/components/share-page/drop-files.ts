/** A file with the share-relative path it should land at ("/name" or "/folder/sub/name" for a folder upload). */
export interface DroppedFile {
  file: File;
  path: string;
}

/** Most files one drop may bring (a dropped home folder must not freeze the tab; the link's limits are lower anyway). */
const MAX_DROPPED = 10_000;

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  // readEntries answers in batches (100 in Chromium) until it answers an empty one.
  return new Promise((resolve, reject) => {
    const out: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (!batch.length) return resolve(out);
        out.push(...batch);
        next();
      }, reject);
    next();
  });
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

async function walk(entry: FileSystemEntry, prefix: string, out: DroppedFile[]): Promise<void> {
  if (out.length >= MAX_DROPPED) return;
  const path = `${prefix}/${entry.name}`;
  if (entry.isFile) out.push({ file: await fileOf(entry as FileSystemFileEntry), path });
  else if (entry.isDirectory) for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader())) await walk(child, path, out);
}

/** What a drop brought, folders walked (their structure kept); plain files where the browser offers no entries. */
export async function filesFromDrop(data: DataTransfer): Promise<DroppedFile[]> {
  const entries = Array.from(data.items ?? [])
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry?.() ?? null);
  if (!entries.length || entries.some((e) => e === null)) return Array.from(data.files).map((file) => ({ file, path: `/${file.name}` }));
  const out: DroppedFile[] = [];
  for (const entry of entries) await walk(entry!, '', out);
  return out;
}

/** Files from a chooser; a folder chooser's files carry their folder in webkitRelativePath. */
export function filesFromInput(list: FileList | null): DroppedFile[] {
  return Array.from(list ?? []).map((file) => ({ file, path: `/${file.webkitRelativePath || file.name}` }));
}
