/**
 * The live properties of the WebDAV endpoint (RFC 4918 §15, RFC 4331 quotas, Microsoft's Win32 properties): their
 * names, which a client may not set, and the values computed from an item. Plain data, no I/O.
 */
export const DAV = 'DAV:';
export const WIN32_NS = 'urn:schemas-microsoft-com:';

/** What allprop returns besides the dead properties (RFC 4918 §9.1: not the quota properties). */
export const ALLPROP_LIVE = ['creationdate', 'displayname', 'getcontentlength', 'getcontenttype', 'getetag', 'getlastmodified', 'resourcetype', 'lockdiscovery', 'supportedlock'] as const;
/** Every live DAV: property this server computes. */
export const LIVE = new Set<string>([...ALLPROP_LIVE, 'quota-used-bytes', 'quota-available-bytes']);

/** A live DAV: property is never set by PROPPATCH; the Win32 times and attributes are stored (and the mtime applied). */
export function isProtected(ns: string, name: string): boolean {
  return ns === DAV && LIVE.has(name);
}

/** An item as the live properties see it. */
export interface DavItem {
  /** Virtual path in the actor's scope. */
  path: string;
  name: string;
  isDir: boolean;
  size: number;
  mtimeMs: number;
  /** Creation time (birth time where the file system keeps it, else the modification time). */
  ctimeMs: number;
}


/** Win32LastModifiedTime and the other Win32 times: an HTTP date (Explorer sends RFC 1123); null when unreadable. */
export function win32Time(text: string): number | null {
  const t = Date.parse(text.trim());
  return Number.isFinite(t) && t > 0 ? t : null;
}

/** Win32FileAttributes when none was stored: directory (0x10) or archive (0x20), hidden (0x2) for dot names. */
export function win32Attributes(item: DavItem): string {
  const bits = (item.isDir ? 0x10 : 0x20) | (item.name.startsWith('.') ? 0x2 : 0);
  return bits.toString(16).padStart(8, '0');
}

/** macOS metadata files: AppleDouble `._*` and `.DS_Store`. */
export const isMacMetadata = (name: string) => name.startsWith('._') || name === '.DS_Store';
