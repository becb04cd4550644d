import { transfer } from '../api/resources';
import { planSteps, randomTag, type Rename, type Step } from '../state/batch-rename-plan';
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

/**
 * Runs the steps one at a time through the single rename's API call (PATCH action=rename, never replacing), so
 * every rule and conflict check applies to each. Stops at the first error; `at` follows what succeeded.
 */
async function runSteps(folder: string, steps: readonly Step[], at: string[], onStep?: (step: Step) => void): Promise<{ item: number; error: unknown } | null> {
  for (const s of steps) {
    try {
      await transfer('rename', folder + s.from, folder + s.to);
    } catch (error) {
      return { item: s.item, error };
    }
    at[s.item] = s.to;
    onStep?.(s);
  }
  return null;
}

const plan = (renames: readonly Rename[], taken: ReadonlySet<string>) => planSteps(renames, (n) => taken.has(n), randomTag);

/**
 * Renames items inside `folder` (decoded, ending in '/'); `existing` holds every name in it. Chains and swaps are
 * ordered by planSteps. After an error the rest stay untouched, and an item parked at a temporary name goes back
 * to its old name when it can. An Undo (toast and Ctrl+Z) then reverts whatever moved, as one batch.
 */
export async function applyBatchRename(folder: string, renames: readonly Rename[], existing: ReadonlySet<string>, onProgress?: (done: number) => void): Promise<BatchOutcome> {
  const at = renames.map((r) => r.from);
  let done = 0;
  const failed = await withProgress(async () => {
    const stop = await runSteps(folder, plan(renames, existing), at, (s) => !s.temporary && onProgress?.(++done));
    if (stop) {
      for (let i = 0; i < at.length; i++) {
        const r = renames[i]!;
        if (at[i] !== r.from && at[i] !== r.to) await runSteps(folder, [{ from: at[i]!, to: r.from, item: i, temporary: false }], at);
      }
    }
    return stop;
  });
  const moved = at.map((now, i) => ({ from: now, to: renames[i]!.from })).filter((m) => m.from !== m.to);
  if (moved.length) {
    const taken = new Set([...existing, ...at]);
    offerUndo({
      messageKey: 'trash.undo.renamed',
      count: moved.length,
      run: async () => {
        const stop = await runSteps(folder, plan(moved, taken), moved.map((m) => m.from));
        if (stop) throw stop.error;
      },
    });
  }
  await reloadListing();
  return { at, renamed: at.filter((now, i) => now === renames[i]!.to).length, failed };
}
