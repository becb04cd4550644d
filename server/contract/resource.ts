export type ResourceType =
  | '' | 'image' | 'audio' | 'video' | 'pdf' | 'text' | 'textImmutable' | 'blob' | 'invalid_link';

/** A file or folder as GET /api/resources returns it (reference §4.1). */
export interface Resource {
  path: string;
  name: string;
  size: number;
  extension: string;
  modified: string;
  mode: number;
  isDir: boolean;
  /**
   * Folders only: the bytes of every file beneath it that the caller can see (rules, hidden dotfiles), from the
   * name index (absent while the index is building, for a linked folder, or when the caller's rules need more
   * work than the bound allows). `size` stays the folder's own inode size, as the reference's clients expect.
   */
  folderSize?: number;
  isSymlink: boolean;
  type: ResourceType;
  content?: string;
  subtitles?: string[];
  items?: Resource[];
  numDirs?: number;
  numFiles?: number;
  sorting?: { by: string; asc: boolean };
}
