import { describe, expect, test } from 'bun:test';
import type { Share } from '../../server/contract/share';
import { draftOf, draftProblems, editChange, optionsChange, slugProblem } from '../../web/components/prompts/share-draft';

// The share form's translation into decision 0051's ShareChange: a create sends only what was set, an edit only what
// changed (so a file link is never sent folder-only fields), and what the server would refuse is caught as typed.
const MIB = 1024 * 1024;
const link: Share = {
  hash: 'h1',
  path: '/Inbox',
  userID: 1,
  expire: 0,
  hasPassword: true,
  mode: 'upload',
  slug: 'drop',
  disabled: false,
  maxDownloads: 0,
  upload: { maxFileSize: 2 * MIB, maxTotalSize: 0, maxFiles: 5, allowedTypes: ['.pdf'] },
  webhookUrl: '',
  webhookSecret: '',
  counters: { views: 0, downloads: 0, uploads: 0, uploadedBytes: 0, lastAccess: 0 },
};

describe('share draft', () => {
  test('slugs: empty is none; format and reserved words caught', () => {
    expect(slugProblem('')).toBe('');
    expect(slugProblem('my-files-2')).toBe('');
    for (const bad of ['ab', '-abc', 'abc-', 'Abc', 'a b c', 'a'.repeat(65), 'ü-files']) expect(slugProblem(bad)).toBe('slugFormat');
    expect(slugProblem('api')).toBe('slugReserved');
  });

  test('a fresh draft sends nothing of v2; set fields only, sizes in MiB, types split', () => {
    expect(optionsChange(draftOf())).toEqual({});
    const d = { ...draftOf(), mode: 'upload' as const, maxFileSize: '1.5', maxFiles: '3', allowedTypes: '.txt, image/*  .md' };
    expect(optionsChange(d)).toEqual({ mode: 'upload', upload: { maxFileSize: Math.round(1.5 * MIB), maxFiles: 3, allowedTypes: ['.txt', 'image/*', '.md'] } });
  });

  test('an edit sends only what changed; clearing a limit sends 0; lifetime and password only when chosen', () => {
    const d = draftOf(link);
    expect(d).toMatchObject({ maxFileSize: '2', maxFiles: '5', allowedTypes: '.pdf', slug: 'drop' });
    expect(editChange(d, link)).toEqual({});
    expect(editChange({ ...d, maxFiles: '', slug: '' }, link)).toEqual({ slug: '', upload: { maxFiles: 0 } });
    expect(editChange({ ...d, expiry: 'never', passwordChoice: 'remove' }, link)).toEqual({ expires: 0, password: '' });
    expect(editChange({ ...d, expiry: 'set', duration: '2', unit: 'days', passwordChoice: 'set', password: 'pw' }, link)).toEqual({ expires: 2, unit: 'days', password: 'pw' });
  });

  test('problems: a new lifetime must be a positive whole count; limits whole or sizes; webhooks http(s); a new password typed', () => {
    const d = draftOf(link);
    expect(draftProblems(d, 100)).toEqual([]);
    expect(draftProblems({ ...d, expiry: 'set', duration: '' }, 100)).toEqual(['duration']);
    expect(draftProblems({ ...d, duration: '101' }, 100)).toEqual(['duration']);
    expect(draftProblems({ ...d, maxFiles: '1.5', maxDownloads: '-1', maxFileSize: 'x' }, 100)).toEqual(['maxDownloads', 'maxFiles', 'maxFileSize']);
    expect(draftProblems({ ...d, webhookUrl: 'ftp://x' }, 100)).toEqual(['webhookUrl']);
    expect(draftProblems({ ...d, passwordChoice: 'set' }, 100)).toEqual(['password']);
  });
});
