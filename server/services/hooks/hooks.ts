import type { Actor } from '../actor';

import type { EVENTS } from '../../contract/settings';

/** The events hooks run on: the list lives once, in server/contract (the settings screen lists them too). */
export type HookEvent = (typeof EVENTS)[number];

export interface HookContext {
  actor: Actor;
  /** Virtual path of the item the event is about. */
  path: string;
  /** For copy and rename: where the item goes. */
  destination?: string;
}

/**
 * Event hooks around file operations (settings.commands before_/after_<event>). A failing `before` aborts the
 * operation by throwing; `after` failures are logged, never undo the operation. The command-runner issue
 * provides the implementation; with exec disabled the no-op below is used.
 */
export interface Hooks {
  before(event: HookEvent, ctx: HookContext): Promise<void>;
  after(event: HookEvent, ctx: HookContext): Promise<void>;
}

export const noHooks: Hooks = {
  async before() {},
  async after() {},
};
