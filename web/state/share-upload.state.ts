import { proxy } from 'valtio/vanilla';
import type { PublicUploadRoom } from '../../server/contract/share';
import { isApiError } from '../api/client';
import { publicTusUpload, type PublicUpload } from '../api/public-upload';

/**
 * Why a visitor's file was not accepted; each has its own message on the share page. The limits are checked here
 * first so nothing is sent that must fail, but the server decides (its answers map to the same reasons).
 */
export type UploadRefusal = 'size' | 'total' | 'count' | 'type' | 'quota' | 'flood' | 'closed' | 'failed';

export interface DropItem {
  id: number;
  /** Share-relative path asked for ("/name.ext" or "/folder/name.ext" for folder uploads). */
  path: string;
  size: number;
  loaded: number;
  status: 'queued' | 'uploading' | 'done' | 'failed';
  refusal?: UploadRefusal;
  /** Where the server stored it (a clash gets a new name). */
  stored?: string;
}

interface ShareUploadState {
  items: DropItem[];
  /** Files stored during this visit: a page that lists the folder reloads it when this grows. */
  stored: number;
  /** What the link still accepts, counted down as files arrive. */
  room: PublicUploadRoom | null;
}

export const shareUpload = proxy<ShareUploadState>({ items: [], stored: 0, room: null });

let nextId = 1;
let running: PublicUpload | null = null;
let target = { hash: '', token: undefined as string | undefined };
const files = new Map<number, File>();

/** A type rule matches an extension (".pdf") or a MIME pattern ("image/*"), case-insensitively. */
export function typeAllowed(allowed: readonly string[], name: string, mime: string): boolean {
  if (!allowed.length) return true;
  const lower = name.toLowerCase();
  const type = mime.toLowerCase();
  return allowed.some((rule) => {
    const r = rule.trim().toLowerCase();
    if (r.startsWith('.')) return lower.endsWith(r);
    if (r.endsWith('/*')) return type.startsWith(r.slice(0, -1));
    return r === type;
  });
}

/** The server's answer as a reason; its message tells the count and total limits from the others. */
function refusalOf(status: number, message: string): UploadRefusal {
  if (/no more files/i.test(message)) return 'count';
  if (/no more bytes/i.test(message)) return 'total';
  if (status === 413) return 'size';
  if (status === 415) return 'type';
  if (status === 507) return 'quota';
  if (status === 429) return 'flood';
  if (status === 403 || status === 404 || status === 410) return 'closed';
  return 'failed';
}

/** The local check before sending: the limits the server told us about, minus what this visit already sent. */
function precheck(room: PublicUploadRoom | null, file: File, queuedBytes: number, queuedFiles: number): UploadRefusal | null {
  if (!room) return null;
  if (room.maxFileSize > 0 && file.size > room.maxFileSize) return 'size';
  if (!typeAllowed(room.allowedTypes, file.name, file.type)) return 'type';
  if (room.remainingFiles !== null && queuedFiles + 1 > room.remainingFiles) return 'count';
  if (room.remainingBytes !== null && queuedBytes + file.size > room.remainingBytes) return 'total';
  return null;
}

/** Starts a visit to a file request: the link, its token, what it accepts. Earlier items are kept for the page. */
export function startShareUploads(hash: string, token: string | undefined, room: PublicUploadRoom | null): void {
  if (target.hash !== hash) {
    running?.cancel();
    running = null;
    files.clear();
    shareUpload.items = [];
  }
  target = { hash, token };
  shareUpload.room = room ? { ...room, allowedTypes: [...room.allowedTypes] } : null;
}

/**
 * Queues dropped or chosen files and uploads them one after another. `path` is relative to the folder the visitor
 * is in (`folder`, share-relative), folders kept.
 */
export function enqueueShareUploads(folder: string, entries: { file: File; path: string }[]): void {
  const prefix = folder.replace(/\/+$/, '');
  const pending = shareUpload.items.filter((i) => i.status === 'queued' || i.status === 'uploading');
  let bytes = pending.reduce((n, i) => n + i.size, 0);
  let count = pending.length;
  for (const { file, path } of entries) {
    const id = nextId++;
    const refusal = precheck(shareUpload.room, file, bytes, count);
    shareUpload.items.push({ id, path: `${prefix}${path}`, size: file.size, loaded: 0, status: refusal ? 'failed' : 'queued', refusal: refusal ?? undefined });
    if (refusal) continue;
    files.set(id, file);
    bytes += file.size;
    count++;
  }
  void pump();
}

const item = (id: number) => shareUpload.items.find((i) => i.id === id);

async function pump(): Promise<void> {
  if (running) return;
  const next = shareUpload.items.find((i) => i.status === 'queued');
  if (!next) return;
  const file = files.get(next.id);
  if (!file) return;
  next.status = 'uploading';
  const id = next.id;
  const upload = publicTusUpload(target.hash, next.path, file, { token: target.token, onProgress: (n) => {
    const it = item(id);
    if (it) it.loaded = Math.min(n, it.size);
  } });
  running = upload;
  try {
    const stored = await upload.done;
    const it = item(id);
    if (it) Object.assign(it, { status: 'done', loaded: it.size, stored });
    shareUpload.stored++;
    const room = shareUpload.room;
    if (room && room.remainingFiles !== null) room.remainingFiles = Math.max(0, room.remainingFiles - 1);
    if (room && room.remainingBytes !== null) room.remainingBytes = Math.max(0, room.remainingBytes - file.size);
  } catch (e) {
    const it = item(id);
    if (!isApiError(e)) console.error('filedeck: a share upload failed', e);
    const refusal = isApiError(e) ? refusalOf(e.status, e.message) : 'failed';
    if (it) Object.assign(it, { status: 'failed', refusal });
    // Others filled the link meanwhile: what this page thought was left is not.
    if (refusal === 'count' && shareUpload.room?.remainingFiles != null) shareUpload.room.remainingFiles = 0;
  } finally {
    files.delete(id);
    if (running === upload) running = null;
  }
  if (running === null) void pump();
}

/** Forgets finished and failed rows. */
export function clearFinishedUploads(): void {
  shareUpload.items = shareUpload.items.filter((i) => i.status === 'queued' || i.status === 'uploading');
}
