import type { Sql } from './sql';

/** One dead property: its namespace URI, local name and the whole element as XML text. */
export interface DavProp {
  ns: string;
  name: string;
  xml: string;
}

/** The item at `path` or anything beneath it (paths are root-relative, '/'-separated, without a leading slash). */
const UNDER = '(path = ? OR substr(path, 1, ?) = ?)';
const underParams = (path: string) => [path, path.length + 1, `${path}/`];
/** Paths per IN list (well under SQLite's and PostgreSQL's parameter limits). */
const CHUNK = 200;

/** SQL for WebDAV dead properties (dav_props), keyed by the item's path under the files root. */
export class DavPropsStore {
  constructor(private readonly db: Sql) {}

  async of(path: string): Promise<DavProp[]> {
    return this.db.all<DavProp>('SELECT ns, name, xml FROM dav_props WHERE path = ? ORDER BY ns, name', path);
  }

  /** The properties of several items at once (a PROPFIND batch): by path, only paths that have some. */
  async ofMany(paths: string[]): Promise<Map<string, DavProp[]>> {
    const out = new Map<string, DavProp[]>();
    for (let i = 0; i < paths.length; i += CHUNK) {
      const part = paths.slice(i, i + CHUNK);
      const rows = await this.db.all<DavProp & { path: string }>(`SELECT path, ns, name, xml FROM dav_props WHERE path IN (${part.map(() => '?').join(', ')}) ORDER BY ns, name`, ...part);
      for (const r of rows) {
        const list = out.get(r.path) ?? [];
        list.push({ ns: r.ns, name: r.name, xml: r.xml });
        out.set(r.path, list);
      }
    }
    return out;
  }

  /** Sets and removes properties of one item in one transaction (PROPPATCH is all or nothing). */
  async apply(path: string, set: DavProp[], remove: { ns: string; name: string }[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const r of remove) await tx.run('DELETE FROM dav_props WHERE path = ? AND ns = ? AND name = ?', path, r.ns, r.name);
      for (const p of set) {
        await tx.run('DELETE FROM dav_props WHERE path = ? AND ns = ? AND name = ?', path, p.ns, p.name);
        await tx.run('INSERT INTO dav_props (path, ns, name, xml) VALUES (?, ?, ?, ?)', path, p.ns, p.name, p.xml);
      }
    });
  }

  /** The item at `from` (and everything beneath it) now lives at `to`: its properties follow, replacing any there. */
  async movePaths(from: string, to: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(`DELETE FROM dav_props WHERE ${UNDER}`, ...underParams(to));
      const rows = await tx.all<{ path: string; ns: string; name: string }>(`SELECT path, ns, name FROM dav_props WHERE ${UNDER}`, ...underParams(from));
      for (const r of rows) await tx.run('UPDATE dav_props SET path = ? WHERE path = ? AND ns = ? AND name = ?', to + r.path.slice(from.length), r.path, r.ns, r.name);
    });
  }

  /** A copy of `from` (and what is beneath it) landed at `to`: the properties are copied, replacing any there. */
  async copyPaths(from: string, to: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(`DELETE FROM dav_props WHERE ${UNDER}`, ...underParams(to));
      const rows = await tx.all<DavProp & { path: string }>(`SELECT path, ns, name, xml FROM dav_props WHERE ${UNDER}`, ...underParams(from));
      for (const r of rows) await tx.run('INSERT INTO dav_props (path, ns, name, xml) VALUES (?, ?, ?, ?)', to + r.path.slice(from.length), r.ns, r.name, r.xml);
    });
  }

  /** The item at `path` and everything beneath it are gone: so are their properties. */
  async deleteUnder(path: string): Promise<void> {
    await this.db.run(`DELETE FROM dav_props WHERE ${UNDER}`, ...underParams(path));
  }
}
