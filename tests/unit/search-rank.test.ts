import { describe, expect, test } from 'bun:test';
import { highlightParts, mergeRanked, naturalKey, queryTerms, RankedRuns, rankedHits, rankHits } from '../../web/state/search-rank';

// The search overlay's client-side order and highlighting (issue 16 item 6).
describe('queryTerms', () => {
  test('drops type: and case: filters, lower-cases unless case:sensitive, keeps a quoted phrase whole', () => {
    expect(queryTerms('type:image Holiday  Beach')).toEqual({ terms: ['holiday', 'beach'], caseSensitive: false });
    expect(queryTerms('case:sensitive Invoice')).toEqual({ terms: ['Invoice'], caseSensitive: true });
    expect(queryTerms('"summer trip"').terms).toEqual(['summer trip']);
    expect(queryTerms('type:pdf').terms).toEqual([]);
  });
});

describe('rankHits', () => {
  const paths = ['archive/2023/old-invoice-copy.pdf', 'invoices', 'b/invoice.pdf', 'my invoice.pdf', 'invoice.pdf', 'invoices-2024/notes.txt', 'a/b/c/invoice'];
  test('exact name first, then names starting with the term, then containing it, then path-only matches; shallower first', () => {
    const ranked = rankHits(paths.map((path) => ({ path, dir: false })), queryTerms('invoice')).map((h) => h.path);
    expect(ranked).toEqual(['invoice.pdf', 'b/invoice.pdf', 'a/b/c/invoice', 'invoices', 'my invoice.pdf', 'archive/2023/old-invoice-copy.pdf', 'invoices-2024/notes.txt']);
  });
  test('the order does not depend on arrival order', () => {
    const q = queryTerms('invoice');
    const a = rankHits(paths.map((path) => ({ path })), q);
    const b = rankHits([...paths].reverse().map((path) => ({ path })), q);
    expect(b).toEqual(a);
  });
});

describe('ranking as results stream in', () => {
  test('ties of rank go in natural, case-insensitive path order', () => {
    const q = queryTerms('f');
    expect(rankHits(['x/f10.txt', 'x/F09.txt', 'x/f11.txt', 'x/e99.txt'].map((path) => ({ path })), q).map((h) => h.path)).toEqual(['x/F09.txt', 'x/f10.txt', 'x/f11.txt', 'x/e99.txt']);
    expect(naturalKey('A/b007c')).toBe(`a/b${'7'.padStart(20, '0')}c`);
    expect(naturalKey('n0')).toBe(`n${'0'.padStart(20, '0')}`);
  });
  test('batches ranked alone and merged give the order of ranking everything at once', () => {
    const q = queryTerms('report');
    const words = ['report', 'Report-1', 'old report', 'reports', 'x', 'annual-report', 'REPORT.pdf', 'report 10', 'report 9'];
    const paths = Array.from({ length: 600 }, (_, i) => `${i % 3 ? `d${i % 7}/` : ''}${i % 5 ? '' : 'report-dir/'}${words[(i * 7) % words.length]}${i % 4 ? '' : `-${i}`}.txt`);
    let merged = rankedHits<{ path: string }>([], q);
    for (let at = 0; at < paths.length; at += 37) merged = mergeRanked(merged, rankedHits(paths.slice(at, at + 37).map((path) => ({ path })), q));
    expect(merged.map((r) => r.hit.path)).toEqual(rankHits(paths.map((path) => ({ path })), q).map((h) => h.path));
    expect(mergeRanked(merged, [])).toBe(merged);
    // As the search overlay ranks a stream: batches of any size become runs, and the best n are read off them.
    const runs = new RankedRuns<{ path: string }>(q);
    for (let at = 0, size = 1; at < paths.length; at += size, size = 1 + ((size * 5 + 3) % 97)) runs.add(paths.slice(at, at + size).map((path) => ({ path })));
    const all = rankHits(paths.map((path) => ({ path })), q).map((h) => h.path);
    expect(runs.size).toBe(paths.length);
    for (const n of [0, 1, 50, 599, 600, 1000]) expect(runs.head(n).map((h) => h.path)).toEqual(all.slice(0, n));
  });
  test('big merges spread over the batches that follow read the same best hits at every moment', () => {
    const q = queryTerms('report');
    const paths = Array.from({ length: 3000 }, (_, i) => `d${(i * 7919) % 13}/${i % 3 ? 'old ' : ''}report${(i * 104729) % 3001}${i % 4 ? '.txt' : ''}`);
    // Merges of more than 40 hits advance 7 steps per batch: most of the time one is under way.
    const runs = new RankedRuns<{ path: string }>(q, { atOnce: 40, steps: 7 });
    let added = 0;
    let seenPending = 0;
    let batches = 0;
    for (let size = 1; added < paths.length; size = 1 + ((size * 5 + 3) % 61)) {
      runs.add(paths.slice(added, added + size).map((path) => ({ path })));
      added = Math.min(paths.length, added + size);
      if ((runs as unknown as { pending: unknown }).pending) seenPending++;
      if (++batches % 4 === 0 || added === paths.length) {
        const best = rankHits(paths.slice(0, added).map((path) => ({ path })), q).map((h) => h.path);
        for (const n of [1, 25, added]) expect(runs.head(n).map((h) => h.path)).toEqual(best.slice(0, n));
      }
    }
    expect(seenPending).toBeGreaterThan(20);
    expect(runs.size).toBe(paths.length);
  });
});

describe('highlightParts', () => {
  test('marks every occurrence of every term, case-insensitively, and keeps the original text', () => {
    const parts = highlightParts('Invoice-INVOICE <b>.pdf', queryTerms('invoice <b>'));
    expect(parts).toEqual([
      { text: 'Invoice', mark: true },
      { text: '-', mark: false },
      { text: 'INVOICE', mark: true },
      { text: ' ', mark: false },
      { text: '<b>', mark: true },
      { text: '.pdf', mark: false },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe('Invoice-INVOICE <b>.pdf');
  });
  test('overlapping terms merge; text that changes length when lower-cased keeps its offsets', () => {
    expect(highlightParts('aaa', queryTerms('aa'))).toEqual([{ text: 'aaa', mark: true }]);
    expect(highlightParts('İstanbul trip', queryTerms('trip'))).toEqual([
      { text: 'İstanbul ', mark: false },
      { text: 'trip', mark: true },
    ]);
  });
});
