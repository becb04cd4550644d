import { describe, expect, test } from 'bun:test';
import { FILE_ACTIONS } from '../../web/actions/file-actions';
import { comboLabel, isPrintable, isShortcutCharacter, matches, matchesAny, SHORTCUTS } from '../../web/actions/shortcuts';
import { findByPrefix, nameCollator, TypedPrefix, JUMP_WINDOW_MS } from '../../web/components/files/type-to-jump';
import { childCameFrom } from '../../web/state/listing-focus.state';
import { askedFolder, parentUrl } from '../../web/screens/files/use-files-keys';
import en from '../../locales/en.json';

// The keyboard's one definition and its pure parts (issue 16 item 3).
const ev = (key: string, mods: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean } = {}) => ({
  key,
  ctrlKey: !!mods.ctrl,
  metaKey: !!mods.meta,
  shiftKey: !!mods.shift,
  altKey: !!mods.alt,
});
const keys = en.shortcuts.keys as Record<string, string>;
const t = (k: string) => keys[k.replace('shortcuts.keys.', '')] ?? `!${k}`;

describe('matches', () => {
  test('modifiers are exact; ⌘ counts as Ctrl; letters ignore case', () => {
    expect(matches({ key: 'f', ctrl: true }, ev('f', { ctrl: true }))).toBe(true);
    expect(matches({ key: 'f', ctrl: true }, ev('F', { meta: true, shift: true }))).toBe(false); // Shift+⌘+F is another combo
    expect(matches({ key: 'f', ctrl: true }, ev('f', { meta: true }))).toBe(true);
    expect(matches({ key: 'f', ctrl: true }, ev('f'))).toBe(false);
    expect(matches({ key: 'F2' }, ev('F2', { alt: true }))).toBe(false);
  });
  test("'?' matches with the Shift that types it; Backspace and Alt+↑ go up, plain ↑ does not", () => {
    expect(matchesAny(SHORTCUTS.f1, ev('?', { shift: true }))).toBe(true);
    expect(matchesAny(SHORTCUTS.f1, ev('F1'))).toBe(true);
    expect(matchesAny(SHORTCUTS.up, ev('Backspace'))).toBe(true);
    expect(matchesAny(SHORTCUTS.up, ev('ArrowUp', { alt: true }))).toBe(true);
    expect(matchesAny(SHORTCUTS.up, ev('ArrowUp'))).toBe(false);
  });
  test('typing: one character without Ctrl/Alt; shortcut characters are told apart', () => {
    expect(isPrintable(ev('é'))).toBe(true);
    expect(isPrintable(ev('a', { ctrl: true }))).toBe(false);
    expect(isPrintable(ev('Enter'))).toBe(false);
    expect(isShortcutCharacter(ev('?', { shift: true }))).toBe(true);
    expect(isShortcutCharacter(ev('a'))).toBe(false);
    expect(isShortcutCharacter(ev(' '))).toBe(false);
  });
});

describe('comboLabel', () => {
  test('names keys, groups combos that share modifiers', () => {
    expect(comboLabel([{ key: 'f', ctrl: true }], t)).toBe('Ctrl + F');
    expect(comboLabel(SHORTCUTS.f1.combos, t)).toBe('F1 / ?');
    expect(comboLabel(SHORTCUTS.extend.combos, t)).toBe('Shift + ↑ ↓ ← →');
    expect(comboLabel(SHORTCUTS.up.combos, t)).toBe('Backspace / Alt + ↑');
    expect(comboLabel(SHORTCUTS.move.combos, t)).toBe('↑ ↓ ← →');
    expect(comboLabel([{ key: 'Delete' }], t)).toBe('Del');
  });
  test('every key name used has a translation, and every shortcut a help text', () => {
    const all = [...Object.values(SHORTCUTS).flatMap((s) => s.combos), ...FILE_ACTIONS.flatMap((a) => (a.shortcut ? [a.shortcut] : []))];
    for (const c of all) expect(comboLabel([c], t)).not.toContain('!');
    for (const id of Object.keys(SHORTCUTS)) expect(en.prompts.helpKeys).toHaveProperty(id);
  });
});

describe('type-to-jump', () => {
  const names = ['Alpha', 'beta', 'Été 2024', 'etc', 'Summary.pdf', 'summer', 'Zed'];
  const order = Int32Array.from(names.keys());
  const c = nameCollator('en');
  const at = (start: number, prefix: string) => findByPrefix((i) => names[i]!, order, start, prefix, c);
  test('case- and accent-insensitive prefix, from the start position, wrapping around', () => {
    expect(at(0, 'sum')).toBe(4);
    expect(at(5, 'summa')).toBe(4); // wraps
    expect(at(0, 'ete')).toBe(2);
    expect(at(3, 'e')).toBe(3);
    expect(at(0, 'q')).toBe(-1);
  });
  test('one letter (or the same letter again) steps on; a longer prefix stays while it matches', () => {
    const p = new TypedPrefix();
    expect(p.push('s', 0)).toEqual({ prefix: 's', fromNext: true });
    expect(p.push('s', 100)).toEqual({ prefix: 's', fromNext: true });
    expect(p.push('u', 200)).toEqual({ prefix: 'ssu', fromNext: false });
    expect(p.active(200 + JUMP_WINDOW_MS)).toBe(true);
    expect(p.push('z', 200 + JUMP_WINDOW_MS + 1)).toEqual({ prefix: 'z', fromNext: true });
  });
  test('100,000 names, none rendered: a miss is one pass over the shown order', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `file-${i}`);
    const ord = Int32Array.from(many.keys());
    const t0 = performance.now();
    expect(findByPrefix((i) => many[i]!, ord, 0, 'nope', c)).toBe(-1);
    expect(findByPrefix((i) => many[i]!, ord, 5, 'file-99999', c)).toBe(99_999);
    console.log(`two passes over 100,000 names: ${(performance.now() - t0).toFixed(1)} ms`);
  });
});

describe('going up', () => {
  test('the child of the folder we came from, at any depth; nothing when not below', () => {
    expect(childCameFrom('/a/b/', '/a/')).toBe('b');
    expect(childCameFrom('/a/b/photo.jpg', '/a/b/')).toBe('photo.jpg');
    expect(childCameFrom('/a/b/c/', '/')).toBe('a');
    expect(childCameFrom('/ab/', '/a/')).toBeNull();
    expect(childCameFrom('/a/', '/a/')).toBeNull();
    expect(childCameFrom('/a/', '/a/b/')).toBeNull();
  });
  test('askedFolder decodes the address bar\'s raw path exactly, and is null outside /files/ or when malformed', () => {
    expect(askedFolder('/files/a%20b/c%25d/')).toBe('/a b/c%d/');
    expect(askedFolder('/files/')).toBe('/');
    expect(askedFolder('/files')).toBe('/');
    expect(askedFolder('/settings/')).toBeNull();
    expect(askedFolder('/files/bad%E0%A4/')).toBeNull();
    expect(parentUrl(askedFolder('/files/Docs/Inner/')!)).toBe('/files/Docs/');
  });

  test('parentUrl encodes each segment and stops at the top', () => {
    expect(parentUrl('/a b/c%d/e/')).toBe('/files/a%20b/c%25d/');
    expect(parentUrl('/a/')).toBe('/files/');
    expect(parentUrl('/')).toBeNull();
  });
});
