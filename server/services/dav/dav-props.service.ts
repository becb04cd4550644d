import { relative, sep } from 'node:path';
import { AppError, notFound } from '../../core/errors';
import type { DavProp, DavPropsStore } from '../../db/dav-props.store';

export type { DavProp };
import { realRootOf } from '../../fs/versions-fs';
import type { Actor } from '../actor';
import type { FileFollower } from '../files/files.service';
import { authorizePath } from '../policy/file-policy';
import type { DavLockGate } from './dav-lock-gate';
import { isProtected, WIN32_NS, win32Time } from './dav-live';

/** One PROPPATCH instruction, in document order: `xml` is the whole element (set) as the client sent it, re-serialised. */
export interface PropOp {
  op: 'set' | 'remove';
  ns: string;
  name: string;
  xml: string;
  /** The element's text (the Win32 times). */
  text: string;
}

/** Properties per PROPPATCH, and bytes per value (the request body as a whole is capped by the HTTP layer). */
export const MAX_PROPS = 1000;
export const MAX_VALUE_BYTES = 64 * 1024;

export interface PropStatus {
  ns: string;
  name: string;
  status: 200 | 403 | 409 | 424;
  /** The precondition element (403: cannot-modify-protected-property). */
  error?: string;
}

/**
 * WebDAV dead properties (RFC 4918 §4, §9.2): kept in dav_props keyed by the item's path under the files root, so
 * they follow moves (registered as a FilesService follower, like versions) and go with the item when it is deleted.
 */
export class DavPropsService implements FileFollower {
  private root: string | null = null;

  constructor(private readonly d: { store: DavPropsStore; root: string; locks: () => DavLockGate }) {}

  /** The files root's real path, read when first needed (the root is made at start, after the services). */
  private get realRoot(): string {
    return (this.root ??= realRootOf(this.d.root));
  }

  /** The key of a real location: its path under the files root ('' for the root), null outside it. */
  private keyOf(real: string): string | null {
    const rel = relative(this.realRoot, real);
    if (rel.startsWith('..') || rel.startsWith(sep)) return null;
    return rel.split(sep).join('/');
  }

  /** The key of a virtual path of the actor's scope (the entry itself, a link not followed). */
  async keyFor(actor: Actor, path: string): Promise<string | null> {
    return this.keyOf(await actor.fs.entryReal(path));
  }

  /** The key children of a folder are keyed under (the folder's real location: through a link, where it points). */
  async folderKey(actor: Actor, path: string): Promise<string | null> {
    return this.keyOf(await actor.fs.real(path));
  }

  /** Dead properties of one item. */
  async of(actor: Actor, path: string): Promise<DavProp[]> {
    const key = await this.keyFor(actor, path);
    return key === null ? [] : this.d.store.of(key);
  }

  /** Dead properties of the named children of a folder (one query per batch of a PROPFIND). */
  async ofChildren(folderKey: string | null, names: string[]): Promise<Map<string, DavProp[]>> {
    if (folderKey === null || names.length === 0) return new Map();
    const keys = names.map((n) => (folderKey ? `${folderKey}/${n}` : n));
    const byKey = await this.d.store.ofMany(keys);
    const out = new Map<string, DavProp[]>();
    names.forEach((n, i) => {
      const p = byKey.get(keys[i]!);
      if (p) out.set(n, p);
    });
    return out;
  }

  /**
   * PROPPATCH: all instructions or none (RFC 4918 §9.2). A protected live property fails with 403, the others then
   * with 424; otherwise the Win32 modification time is applied to the item and every dead property stored in one
   * transaction.
   */
  async patch(actor: Actor, path: string, ops: PropOp[], ifHeader: string | null, etagOf: (p: string) => Promise<string | null>): Promise<PropStatus[]> {
    authorizePath(actor, 'modify', path);
    await actor.fs.stat(path);
    if (ops.length > MAX_PROPS) throw new AppError('TOO_LARGE', `at most ${MAX_PROPS} properties per request`);
    if (ops.some((o) => Buffer.byteLength(o.xml) > MAX_VALUE_BYTES)) throw new AppError('TOO_LARGE', `a property value is larger than ${MAX_VALUE_BYTES} bytes`);
    await this.d.locks().assertMayChange(actor, [{ path, depth: '0' }], ifHeader, etagOf);
    const failed = new Map<PropOp, PropStatus>();
    let mtime: number | null = null;
    for (const o of ops) {
      if (isProtected(o.ns, o.name)) failed.set(o, { ns: o.ns, name: o.name, status: 403, error: 'cannot-modify-protected-property' });
      else if (o.op === 'set' && o.ns === WIN32_NS && o.name === 'Win32LastModifiedTime') {
        const t = win32Time(o.text);
        if (t === null) failed.set(o, { ns: o.ns, name: o.name, status: 409 });
        else mtime = t;
      }
    }
    if (failed.size) return ops.map((o) => failed.get(o) ?? { ns: o.ns, name: o.name, status: 424 });
    const key = await this.keyFor(actor, path);
    if (key === null) throw notFound('no properties outside the files root');
    if (mtime !== null) await actor.fs.setModified(path, mtime);
    // In document order: a later instruction on the same name wins.
    const last = new Map<string, PropOp>();
    for (const o of ops) last.set(`${o.ns}\n${o.name}`, o);
    const final = [...last.values()];
    await this.d.store.apply(key, final.filter((o) => o.op === 'set').map((o) => ({ ns: o.ns, name: o.name, xml: o.xml })), final.filter((o) => o.op === 'remove'));
    return ops.map((o) => ({ ns: o.ns, name: o.name, status: 200 }));
  }

  /** A copy landed: the source's properties (and those beneath it, for `tree`) are copied to it. */
  async copied(actor: Actor, from: string, to: string, tree: boolean): Promise<void> {
    const a = await this.keyFor(actor, from);
    const b = await this.keyFor(actor, to);
    if (a === null || b === null) return;
    if (tree) return this.d.store.copyPaths(a, b);
    await this.d.store.deleteUnder(b);
    await this.d.store.apply(b, await this.d.store.of(a), []);
  }

  /**
   * FileFollower: `entry` went into the trash. Its properties are kept under a key no file can have (a trash item's),
   * so a new item at its name starts bare, and they come back if the item is restored.
   */
  async trashed(entry: string, trashId: string): Promise<void> {
    const key = this.keyOf(entry);
    if (key !== null && key !== '') await this.d.store.movePaths(key, trashKey(trashId));
  }

  /** FileFollower: trash item `trashId` is back at `to`: its properties are the item's again. */
  async untrashed(trashId: string, _from: string, to: string): Promise<void> {
    const key = this.keyOf(to);
    if (key === null || key === '') return this.trashGone(trashId);
    await this.d.store.movePaths(trashKey(trashId), key);
  }

  /** FileFollower: trash item `trashId` went for good, and its properties with it. */
  async trashGone(trashId: string): Promise<void> {
    await this.d.store.deleteUnder(trashKey(trashId));
  }

  /** FileFollower: `from` now lives at `to` (real locations). */
  async moved(from: string, to: string): Promise<void> {
    const a = this.keyOf(from);
    const b = this.keyOf(to);
    if (a === null || a === '' || a === b) return;
    if (b === null) return this.d.store.deleteUnder(a);
    await this.d.store.movePaths(a, b);
  }

  /** FileFollower: `entry` and everything beneath it are gone for good. */
  async removed(entry: string): Promise<void> {
    const key = this.keyOf(entry);
    if (key !== null && key !== '') await this.d.store.deleteUnder(key);
  }
}

/**
 * Where a trashed item's properties wait: under the reserved trash name, a key no WebDAV or API path can name (and
 * free of NUL, which PostgreSQL text cannot hold).
 */
const trashKey = (trashId: string): string => `.filedeck-trash/props/${trashId}`;
