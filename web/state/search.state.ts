import { proxy, ref } from 'valtio/vanilla';
import { isApiError } from '../api/client';
import { streamSearch, type SearchHit } from '../api/search';

/** Results shown at first, and added each time the list is scrolled near its end (spec §9). */
export const SEARCH_PAGE = 50;

interface SearchState {
  open: boolean;
  /** The decoded folder searched ("/a b/"). */
  basePath: string;
  query: string;
  /** Every hit received so far; kept out of valtio's proxying (it may be long) and only appended to. */
  hits: SearchHit[];
  /** Bumped as hits arrive, so readers re-render. */
  received: number;
  shown: number;
  searching: boolean;
  /** A search ran for the current results (distinguishes "no results" from "not searched yet"). */
  searched: boolean;
  error: string | null;
}

/** The search overlay (owned by the viewers slice). Other code only calls openSearch/closeSearch. */
export const searchState = proxy<SearchState>({
  open: false,
  basePath: '/',
  query: '',
  hits: ref([]),
  received: 0,
  shown: SEARCH_PAGE,
  searching: false,
  searched: false,
  error: null,
});

let current: AbortController | null = null;

function stop(): void {
  current?.abort();
  current = null;
  searchState.searching = false;
}

function clearResults(): void {
  searchState.hits = ref([]);
  searchState.received = 0;
  searchState.shown = SEARCH_PAGE;
  searchState.searched = false;
  searchState.error = null;
}

export function openSearch(basePath: string): void {
  if (searchState.basePath !== basePath) {
    stop();
    clearResults();
  }
  searchState.basePath = basePath;
  searchState.open = true;
}

export function closeSearch(): void {
  stop();
  searchState.open = false;
}

export function setSearchQuery(query: string): void {
  searchState.query = query;
}

/** Runs the query; results are shown as they stream in. A new search aborts the one before it. */
export async function runSearch(query = searchState.query): Promise<void> {
  stop();
  clearResults();
  searchState.query = query;
  if (!query.trim()) return;
  const controller = new AbortController();
  current = controller;
  const hits: SearchHit[] = [];
  searchState.hits = ref(hits);
  searchState.searching = true;
  searchState.searched = true;
  try {
    await streamSearch(searchState.basePath, query, controller.signal, (batch) => {
      if (current !== controller) return;
      for (const hit of batch) hits.push(hit);
      searchState.received = hits.length;
    });
  } catch (e) {
    if (current !== controller || (e instanceof DOMException && e.name === 'AbortError')) return;
    searchState.error = isApiError(e) ? e.message.trim() : String(e);
  } finally {
    if (current === controller) {
      current = null;
      searchState.searching = false;
    }
  }
}

/** The list was scrolled near its end: show another page of what has arrived. */
export function showMoreResults(): void {
  if (searchState.shown < searchState.received) searchState.shown += SEARCH_PAGE;
}

/** A "type:x" shortcut: replaces any type filter in the query with this one, then searches. */
export function searchType(type: string): Promise<void> {
  const rest = searchState.query.replace(/(^|\s)type:\S+/g, ' ').trim();
  return runSearch(`type:${type}${rest ? ` ${rest}` : ''}`);
}
