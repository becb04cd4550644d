/**
 * The ETag a file's bytes are served with (GET /api/raw, shares, WebDAV GET and getetag, If headers): size and
 * whole milliseconds of the modification time, hex, weak. One formula, so every answer about one file agrees.
 */
export const downloadEtag = (size: number, mtimeMs: number): string => `W/"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
