import { useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionContext, FileAction } from '../../actions/file-actions';
import { FILE_ACTIONS } from '../../actions/file-actions';
import { comboLabel } from '../../actions/shortcuts';
import '../../styles/context-menu.css';
import { Icon } from '../ui/icon';

/** Where the menu opens (viewport coordinates) and what it acts on. */
export interface ContextMenuState {
  x: number;
  y: number;
  ctx: ActionContext;
  /** The actions offered (FILE_ACTIONS objects, so availability and running stay theirs); menuActions(ctx) if absent. */
  actions?: readonly FileAction[];
  /** The menu's accessible name; the listing's "Actions for the selection" if absent. */
  label?: string;
  /**
   * A menu button that opened it (the selection bar's More): the menu sits above the button's toolbar (below when
   * there is no room), its inline end at the button's, and a press on the button is left to it (it toggles the menu).
   */
  opener?: HTMLElement;
}

/** The header's actions that act on a selection, plus Info: the same objects, so availability is decided once. */
export function menuActions(ctx: ActionContext): FileAction[] {
  return FILE_ACTIONS.filter((a) => (a.selection || a.id === 'info') && a.available(ctx));
}

const EDGE = 8;
/** Between a menu and the button that opened it. */
const GAP = 6;

/**
 * The listing's context menu (right-click, the Menu key, Shift+F10), also the selection bar's More menu (the one
 * menu primitive): a role=menu of buttons, keyboard navigable
 * (arrows, Home/End; Esc or Tab closes), closed by a press outside it. It lives outside the listbox.
 * onClose(refocus): true when the keyboard focus, which is in the menu, must go back to the listing (Esc, Tab, an
 * action chosen); false when the pointer went elsewhere, which then decides the focus.
 */
export function ContextMenu({ state, onClose }: { state: ContextMenuState; onClose(refocus: boolean): void }) {
  const { t } = useTranslation();
  const menu = useRef<HTMLDivElement>(null);
  const actions = state.actions ?? menuActions(state.ctx);

  // Kept inside the window, then the first item takes the focus.
  useLayoutEffect(() => {
    const el = menu.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    let { x, y } = state;
    if (state.opener) {
      const b = state.opener.getBoundingClientRect();
      // Vertically clear of the whole toolbar the button is in (the selection bar), not over its edge.
      const row = (state.opener.closest('[role=toolbar]') ?? state.opener).getBoundingClientRect();
      x = getComputedStyle(state.opener).direction === 'rtl' ? b.left : b.right - r.width;
      y = row.top - r.height - GAP >= EDGE ? row.top - r.height - GAP : row.bottom + GAP;
    }
    el.style.left = `${Math.max(EDGE, Math.min(x, window.innerWidth - r.width - EDGE))}px`;
    el.style.top = `${Math.max(EDGE, Math.min(y, window.innerHeight - r.height - EDGE))}px`;
    el.querySelector<HTMLButtonElement>('[role=menuitem]')?.focus();
  }, [state]);

  // A press anywhere else, or the window losing its size or scroll position, closes the menu.
  useLayoutEffect(() => {
    const outside = (e: PointerEvent) => {
      const on = e.target as Node;
      if (!menu.current?.contains(on) && !state.opener?.contains(on)) onClose(false);
    };
    const away = () => onClose(false);
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('resize', away);
    window.addEventListener('scroll', away, { passive: true });
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('resize', away);
      window.removeEventListener('scroll', away);
    };
  }, [onClose, state.opener]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role=menuitem]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => items[(to + items.length) % items.length]?.focus();
    // Every key stays in the menu: the listing's own shortcuts must not act on the selection behind it.
    e.stopPropagation();
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    // PageUp/PageDown would scroll the page behind, which closes the menu: they go to the ends instead.
    else if (e.key === 'Home' || e.key === 'PageUp') move(0);
    else if (e.key === 'End' || e.key === 'PageDown') move(items.length - 1);
    else if (e.key === 'Escape' || e.key === 'Tab') onClose(true);
    else return;
    e.preventDefault();
  };

  return (
    <div ref={menu} className="context-menu" role="menu" aria-label={state.label ?? t('files.contextMenu')} data-testid="context-menu" style={{ left: state.x, top: state.y }} onKeyDown={onKeyDown} onContextMenu={(e) => e.preventDefault()}>
      {actions.map((a) => (
        <button
          key={a.id}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="context-menu__item"
          data-testid={`menu-${a.id}`}
          onClick={() => {
            // Run first: the listing must see whether the action opened a prompt (which returns the focus itself).
            a.run(state.ctx);
            onClose(true);
          }}
        >
          <Icon name={a.icon} />
          <span>{t(`buttons.${a.label}`)}</span>
          {a.shortcut && <kbd className="context-menu__key" dir="ltr">{comboLabel([a.shortcut], t)}</kbd>}
        </button>
      ))}
    </div>
  );
}
