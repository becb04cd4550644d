import { expect, test } from 'bun:test';
import { mimeOf } from '../../server/services/files/detect-type';

// mimeOf answers the last name's extension without slicing it again: its answers must not depend on what was asked
// before (case, names without a dot, dotfiles, double extensions).
test('mimeOf answers the same whatever was asked before', () => {
  const names = ['a.txt', 'b.TXT', 'c', 'd.txt', '.txt', 'e.tar.gz', 'f.gz', 'g.JPG', 'h.jpg', 'i.', 'j..txt', 'k.md', 'l.ts', 'M.Ts', 'n.mp4', 'o.txt'];
  const alone = names.map((n) => (mimeOf('zz.qqq'), mimeOf(n)));
  expect(names.map(mimeOf)).toEqual(alone);
  expect([...names].reverse().map(mimeOf).reverse()).toEqual(alone);
  expect(alone.slice(0, 4)).toEqual(['text/plain', 'text/plain', 'application/octet-stream', 'text/plain']);
  expect(mimeOf('g.JPG')).toBe('image/jpeg');
});
