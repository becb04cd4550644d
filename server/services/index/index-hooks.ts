import type { HookContext, HookEvent, Hooks } from '../hooks/hooks';
import type { NameIndex } from './name-index.service';

/**
 * The server's own writes reach the index here, at their one common point: every write path (POST, PUT, PATCH
 * copy/move, DELETE, tus, public uploads) runs `hooks.after` once it is done. The paths are handed to the index
 * worker at once (before the user's after-hooks run), so the index holds the change within milliseconds, without
 * waiting for the watcher (or for a reconcile when there is none).
 */
export function indexedHooks(inner: Hooks, index: NameIndex): Hooks {
  return {
    before: (event: HookEvent, ctx: HookContext) => inner.before(event, ctx),
    after: (event: HookEvent, ctx: HookContext) => {
      try {
        // Lexical locations under the scope's real root: the index holds entries as they are on disk.
        const at = (p: string) => (p === '/' ? ctx.actor.fs.realRoot : ctx.actor.fs.realRoot + p);
        index.touch(ctx.destination !== undefined ? [at(ctx.path), at(ctx.destination)] : [at(ctx.path)]);
      } catch {
        // an actor without a scope (the system actor) writes nothing through FilesService
      }
      return inner.after(event, ctx);
    },
  };
}
