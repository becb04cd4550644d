import { lstat, opendir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { removeTrashed, TRASH_DIR } from './trash-fs';

/** A user's folder in a trash (`<base>/<user id>`) and an item's slot in it (`<random UUID>`, what moveIntoTrash names). */
const USER_DIR = /^\d{1,12}$/;
const SLOT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const d of await opendir(dir, { bufferSize: 64 })) out.push(d.name);
  } catch {
    // missing or unreadable: nothing of ours there
  }
  return out;
}

/**
 * Slots a trash holds (`<base>/<user id>/<uuid>`, only names of exactly that form, real folders, never links) with
 * the time they last changed (an item renamed in changes it). `base` must be a trash folder (named TRASH_DIR).
 */
export async function* trashSlots(base: string): AsyncGenerator<{ slot: string; changedMs: number }> {
  if (!base.endsWith(`/${TRASH_DIR}`)) return;
  for (const user of await names(base)) {
    if (!USER_DIR.test(user)) continue;
    const udir = join(base, user);
    const ust = await lstat(udir).catch(() => null);
    if (!ust?.isDirectory()) continue;
    for (const id of await names(udir)) {
      if (!SLOT.test(id)) continue;
      const slot = join(udir, id);
      const changedMs = await slotChangedMs(slot);
      if (changedMs !== null) yield { slot, changedMs };
    }
  }
}

/** When a slot last changed (an entry renamed in or out changes it); null when it is gone or not a folder. */
export async function slotChangedMs(slot: string): Promise<number | null> {
  const st = await lstat(slot).catch(() => null);
  return st?.isDirectory() ? Math.max(st.mtimeMs, st.ctimeMs) : null;
}

/** The trash folder an item's trash location lies in (`<base>/<user>/<uuid>/<name>` -> `<base>`). */
export const trashBaseOf = (trashReal: string) => dirname(dirname(dirname(trashReal)));

/** The slot an item's trash location lies in (`<base>/<user>/<uuid>/<name>` -> `<base>/<user>/<uuid>`). */
export const slotOf = (trashReal: string) => dirname(trashReal);

/** Removes one slot with whatever it holds (links removed as links): only a path of trashSlots' form. */
export async function removeSlot(slot: string): Promise<void> {
  const [id, user, base] = [slot.split('/').at(-1)!, slot.split('/').at(-2)!, dirname(dirname(slot))];
  if (!SLOT.test(id) || !USER_DIR.test(user) || !base.endsWith(`/${TRASH_DIR}`)) throw new Error(`not a trash slot: ${slot}`);
  await removeTrashed(join(slot, 'x')); // removeTrashed removes the slot holding the entry it is given
}
