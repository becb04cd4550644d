import type en from '../../locales/en.json';

/**
 * The keyboard's one definition (issue 16 item 3). The actions carry their own combos (`FileAction.shortcut`);
 * everything else the files view answers to is listed here once: the global handler, the listing, the previewer
 * and the help prompt all read these objects, so a key shown in the help is the key that works.
 */

/** A key with its modifiers; `key` is a KeyboardEvent.key value, or a pseudo key (`typing`, `click`...). */
export interface Combo {
  key: string;
  /** Ctrl, or ⌘ on a Mac. */
  ctrl?: boolean;
  shift?: boolean;
  alt?: boolean;
}

export type HelpId = keyof (typeof en)['prompts']['helpKeys'];
export type ShortcutGroup = 'files' | 'listing' | 'preview' | 'mouse';
type KeyName = keyof (typeof en)['shortcuts']['keys'];

export interface Shortcut {
  group: ShortcutGroup;
  combos: readonly Combo[];
}

/** What a key event offers to matching: DOM and React events alike. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

const k = (key: string, mods: Omit<Combo, 'key'> = {}): Combo => ({ key, ...mods });
const ARROWS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'] as const;

/** In display order (the help prompt lists them group by group, actions first). */
export const SHORTCUTS = {
  f1: { group: 'files', combos: [k('F1'), k('?')] },
  esc: { group: 'files', combos: [k('Escape')] },
  enter: { group: 'files', combos: [k('Enter')] },
  ctrlA: { group: 'files', combos: [k('a', { ctrl: true })] },
  ctrlC: { group: 'files', combos: [k('c', { ctrl: true })] },
  ctrlX: { group: 'files', combos: [k('x', { ctrl: true })] },
  ctrlV: { group: 'files', combos: [k('v', { ctrl: true })] },
  ctrlZ: { group: 'files', combos: [k('z', { ctrl: true })] },
  move: { group: 'listing', combos: ARROWS.map((a) => k(a)) },
  ends: { group: 'listing', combos: [k('Home'), k('End')] },
  page: { group: 'listing', combos: [k('PageUp'), k('PageDown')] },
  extend: { group: 'listing', combos: ARROWS.map((a) => k(a, { shift: true })) },
  cursor: { group: 'listing', combos: ARROWS.map((a) => k(a, { ctrl: true })) },
  toggle: { group: 'listing', combos: [k(' ')] },
  open: { group: 'listing', combos: [k('Enter')] },
  up: { group: 'listing', combos: [k('Backspace'), k('ArrowUp', { alt: true })] },
  jump: { group: 'listing', combos: [k('typing')] },
  menu: { group: 'listing', combos: [k('ContextMenu'), k('F10', { shift: true })] },
  previewNext: { group: 'preview', combos: [k('ArrowRight'), k('Enter')] },
  previewPrev: { group: 'preview', combos: [k('ArrowLeft')] },
  previewClose: { group: 'preview', combos: [k('Escape')] },
  click: { group: 'mouse', combos: [k('click')] },
  ctrlClick: { group: 'mouse', combos: [k('click', { ctrl: true })] },
  shiftClick: { group: 'mouse', combos: [k('click', { shift: true })] },
  doubleClick: { group: 'mouse', combos: [k('doubleClick')] },
} as const satisfies Record<HelpId, Shortcut>;

export type ShortcutId = keyof typeof SHORTCUTS;

/** A key that types one character (no Ctrl, Alt or ⌘): type-to-jump takes these. */
export function isPrintable(e: KeyLike): boolean {
  return [...e.key].length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;
}

/** Punctuation such as '?' needs Shift on most layouts: for those keys Shift is part of the character, not a modifier. */
const shiftInKey = (key: string) => [...key].length === 1 && key.toLowerCase() === key.toUpperCase() && key !== ' ';

export function matches(c: Combo, e: KeyLike): boolean {
  if (c.key === 'typing') return isPrintable(e);
  if (e.key.toLowerCase() !== c.key.toLowerCase()) return false;
  if (!!c.ctrl !== (e.ctrlKey || e.metaKey) || !!c.alt !== e.altKey) return false;
  return shiftInKey(c.key) || !!c.shift === e.shiftKey;
}

export function matchesAny(s: Shortcut | readonly Combo[] | undefined, e: KeyLike): boolean {
  const combos = !s ? [] : 'combos' in s ? s.combos : s;
  return combos.some((c) => matches(c, e));
}

/** A printable key that is itself a shortcut ('?'): type-to-jump leaves it to its shortcut. */
export function isShortcutCharacter(e: KeyLike): boolean {
  return Object.values(SHORTCUTS).some((s) => s.combos.some((c) => c.key !== 'typing' && [...c.key].length === 1 && c.key !== ' ' && matches(c, e)));
}

/** Key names that are words (translated); letters show upper-cased, F keys as they are. */
const NAMED: Record<string, KeyName> = {
  ' ': 'Space',
  Escape: 'Escape',
  Enter: 'Enter',
  Delete: 'Delete',
  Backspace: 'Backspace',
  ArrowUp: 'ArrowUp',
  ArrowDown: 'ArrowDown',
  ArrowLeft: 'ArrowLeft',
  ArrowRight: 'ArrowRight',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  ContextMenu: 'ContextMenu',
  typing: 'typing',
  click: 'click',
  doubleClick: 'doubleClick',
};

type Translate = (key: `shortcuts.keys.${KeyName}`) => string;

const keyName = (key: string, t: Translate) => (NAMED[key] ? t(`shortcuts.keys.${NAMED[key]}`) : key.length === 1 ? key.toUpperCase() : key);
const modsOf = (c: Combo, t: Translate) => [c.ctrl && t('shortcuts.keys.ctrl'), c.shift && t('shortcuts.keys.shift'), c.alt && t('shortcuts.keys.alt')].filter(Boolean) as string[];

/**
 * How combos read in the help and the menus: "Ctrl + F"; combos sharing their modifiers are written once
 * ("Shift + ↑ ↓ ← →"), other combos follow after " / " ("F1 / ?").
 */
export function comboLabel(combos: readonly Combo[], t: Translate): string {
  const groups = new Map<string, string[]>();
  for (const c of combos) {
    const mods = modsOf(c, t).join(' + ');
    groups.set(mods, [...(groups.get(mods) ?? []), keyName(c.key, t)]);
  }
  // Arrows read as one set ("↑ ↓ ← →"); different keys are alternatives ("F1 / ?").
  const glyphs = (keys: string[]) => keys.every((key) => key.length === 1 && !/[\p{L}\p{N}]/u.test(key));
  return [...groups].map(([mods, keys]) => (mods ? `${mods} + ${keys.join(' ')}` : keys.join(glyphs(keys) ? ' ' : ' / '))).join(' / ');
}
