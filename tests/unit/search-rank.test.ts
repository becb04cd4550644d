import { describe, expect, test } from 'bun:test';
import { highlightParts, queryTerms, rankHits } from '../../web/state/search-rank';

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
