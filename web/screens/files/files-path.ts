import { rawAppPath } from '../../state/navigation';

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a stray '%' is part of the name
  }
}

/** The decoded virtual path of the current /files/… URL ("/files/a%20b/" → "/a b/"), decoded once per segment. */
export function currentFilesPath(): string {
  const raw = rawAppPath().slice('/files'.length) || '/';
  return raw.split('/').map(decodeSegment).join('/');
}
