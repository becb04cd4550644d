// archiver 8 ships no types and @types/archiver describes the old factory API; only what we use is declared.
declare module 'archiver' {
  import { Transform } from 'node:stream';
  import type { Stats } from 'node:fs';
  interface EntryData {
    name: string;
    type?: 'file' | 'directory';
    date?: Date;
    mode?: number;
    stats?: Stats;
  }
  class Archiver extends Transform {
    constructor(options?: Record<string, unknown>);
    append(source: Buffer | NodeJS.ReadableStream, data: EntryData): this;
    file(path: string, data: EntryData): this;
    finalize(): Promise<void>;
    abort(): this;
    pointer(): number;
  }
  export class ZipArchive extends Archiver {}
  export class TarArchive extends Archiver {}
}
