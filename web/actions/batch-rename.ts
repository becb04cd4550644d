import i18next from 'i18next';
import { transfer } from '../api/resources';
import { planSteps, randomTag, undoSteps, type Rename, type Step } from '../state/batch-rename-plan';
import { reloadListing } from '../state/files.state';
import { withProgress } from '../state/progress.state';
import { offerUndo } from '../state/undo.state';

/** Where each item of a batch ended up, and the error that stopped it (if one did). */
export interface BatchOutcome {
  /** The name each rename's item has now: its new name, its old one, or (rarely) a temporary one. */
  at: string[];
  /** How many items reached their new name. */
  renamed: number;
  /** The item whose step failed, and why. */
  failed: { item: number; error: unknown } | null;
}

type Stop = { step: Step; error: unknown } | null;

/**
 * Runs the steps one at a time through the single rename's API call (PATCH action=rename, never replacing), so
 * every rule and conflict check applies to each. Stops at the first error; `at` follows what succeeded and `done`
 * (when given) collects the steps that went through, in order.
 */
async function runSteps(folder: string, steps: readonly Step[], at: string[], done?: Step[], onStep?: (step: Step) => void): Promise<Stop> {
  for (const s of steps) {
    try {
      await transfer('rename', folder + s.from, folder + s.to);
    } catch (error) {
      return { step: s, error };
    }
    at[s.item] = s.to;
    done?.push(s);
    onStep?.(s);
  }
  return null;
}

const plan = (renames: readonly Rename[], taken: ReadonlySet<string>) => planSteps(renames, (n) => taken.has(n), randomTag);
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).trim();

/**
 * The Undo (toast and Ctrl+Z) of a batch that renamed `count` items: `back` (undoSteps) run the same way as the
 * batch, one PATCH each, stopping at the first refusal; the error then names the item and how far the undo got.
 */
function offerBatchUndo(folder: string, renames: readonly Rename[], at: readonly string[], back: readonly Step[], count: number): void {
  const items = new Set(back.map((s) => s.item));
  offerUndo({
    messageKey: 'trash.undo.renamedItems',
    count,
    run: async () => {
      const now = [...at];
      const stop = await runSteps(folder, back, now);
      if (!stop) return;
      const home = [...items].filter((i) => now[i] === renames[i]!.from).length;
      const name = now[stop.step.item]!;
      const vars = { done: home, total: items.size, name, to: renames[stop.step.item]!.from, message: errorText(stop.error) };
      throw new Error(i18next.t('trash.undo.renameStopped', vars));
    },
  });
}

/**
 * Renames items inside `folder` (decoded, ending in '/'); `existing` holds every name in it. Chains and swaps are
 * ordered by planSteps. After an error the rest stay untouched, and an item parked at a temporary name goes back
 * to its old name when it can. When at least one item reached its new name, an Undo offers to reverse exactly the
 * steps that took it there (and the way home of an item left parked); a batch that renamed nothing offers none,
 * since its undo could only retry what was just refused.
 */
export async function applyBatchRename(folder: string, renames: readonly Rename[], existing: ReadonlySet<string>, onProgress?: (done: number) => void): Promise<BatchOutcome> {
  const at = renames.map((r) => r.from);
  const done: Step[] = [];
  let count = 0;
  const stop = await withProgress(async () => {
    const stop = await runSteps(folder, plan(renames, existing), at, done, (s) => !s.temporary && onProgress?.(++count));
    if (stop) {
      for (let i = 0; i < at.length; i++) {
        const r = renames[i]!;
        if (at[i] !== r.from && at[i] !== r.to) await runSteps(folder, [{ from: at[i]!, to: r.from, item: i, temporary: false }], at, done);
      }
    }
    return stop;
  });
  const renamed = at.filter((now, i) => now === renames[i]!.to).length;
  if (renamed) offerBatchUndo(folder, renames, at, undoSteps(renames, done, at), renamed);
  await reloadListing();
  return { at, renamed, failed: stop && { item: stop.step.item, error: stop.error } };
}
