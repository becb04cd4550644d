/**
 * The archive formats a folder or a selection can be downloaded as: the one list the server parses `algo=` with
 * and the web app offers. The first is the default. Each has the reference's spellings (`targz`, `tarbr`...) as
 * aliases; zip also answers to `true` and to an empty or missing `algo`, as in the reference.
 */
export const ARCHIVE_FORMATS = ['zip', 'tar', 'tar.gz', 'tar.bz2', 'tar.xz', 'tar.lz4', 'tar.sz', 'tar.br', 'tar.zst'] as const;
export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number];

export interface ArchiveFormatInfo {
  /** The file name extension, with its dot. */
  ext: string;
  contentType: string;
  /** Other `algo=` values meaning this format (compared in lower case). */
  aliases: readonly string[];
}

export const ARCHIVE_FORMAT_INFO: Readonly<Record<ArchiveFormat, ArchiveFormatInfo>> = {
  zip: { ext: '.zip', contentType: 'application/zip', aliases: ['', 'true'] },
  tar: { ext: '.tar', contentType: 'application/x-tar', aliases: [] },
  'tar.gz': { ext: '.tar.gz', contentType: 'application/gzip', aliases: ['targz'] },
  'tar.bz2': { ext: '.tar.bz2', contentType: 'application/x-bzip2', aliases: ['tarbz2'] },
  'tar.xz': { ext: '.tar.xz', contentType: 'application/x-xz', aliases: ['tarxz'] },
  'tar.lz4': { ext: '.tar.lz4', contentType: 'application/x-lz4', aliases: ['tarlz4'] },
  'tar.sz': { ext: '.tar.sz', contentType: 'application/x-snappy-framed', aliases: ['tarsz'] },
  'tar.br': { ext: '.tar.br', contentType: 'application/x-brotli', aliases: ['tarbr'] },
  'tar.zst': { ext: '.tar.zst', contentType: 'application/zstd', aliases: ['tarzst'] },
};

/** The format an `algo=` value names (null or absent: zip), or null when it names none. */
export function archiveFormatOf(algo: string | null | undefined): ArchiveFormat | null {
  const a = (algo ?? '').toLowerCase();
  for (const f of ARCHIVE_FORMATS) if (f === a || ARCHIVE_FORMAT_INFO[f].aliases.includes(a)) return f;
  return null;
}
