import { proxy, ref } from 'valtio/vanilla';
import { isApiError } from '../api/client';
import { indexBuilding, streamSearch, type SearchHit } from '../api/search';
import { queryTerms, RankedRuns } from './search-rank';

/** Results shown at first, and added each time the list is scrolled near its end (spec §9). */
export const SEARCH_PAGE = 50;
/** Typing pauses this long before the query is sent (search as you type). */
export const SEARCH_DEBOUNCE_MS = 150;
/** While hits stream in (ranked as each batch arrives), what is shown is refreshed at most this often. */
const SHOW_EVERY_MS = 60;

interface SearchState {
  open: boolean;
  /** The decoded folder searched ("/a b/"). */
  basePath: string;
  query: string;
  /** The query the results shown belong to (the input may already hold a newer one). */
  ranQuery: string;
  /** The best `shown` hits received so far, best first; kept out of valtio's proxying. */
  hits: SearchHit[];
  /** Bumped as hits arrive, so readers re-render. */
  received: number;
  shown: number;
  searching: boolean;
  /** A search ran for the current results (distinguishes "no results" from "not searched yet"). */
  searched: boolean;
  error: string | null;
  /** The server's name index is being built (percent); results then come from a slower walk. */
  building: number | null;
  /** The result chosen with ↑/↓ (index into hits), -1 for none. */
  active: number;
}

/** The search overlay. Other code only calls openSearch/closeSearch. */
export const searchState = proxy<SearchState>({
  open: false,
  basePath: '/',
  query: '',
  ranQuery: '',
  hits: ref([]),
  received: 0,
  shown: SEARCH_PAGE,
  searching: false,
  searched: false,
  error: null,
  building: null,
  active: -1,
});

let current: AbortController | null = null;
/** Every hit of the current search received so far, ranked (null before a search). */
let ranked: RankedRuns<SearchHit> | null = null;

/** Publishes the best `shown` hits: what the list renders and ↑/↓ move through (never all of a huge result). */
function showHead(): void {
  searchState.hits = ref(ranked ? ranked.head(searchState.shown) : []);
}
let debounce: ReturnType<typeof setTimeout> | null = null;

function cancelDebounce(): void {
  if (debounce) clearTimeout(debounce);
  debounce = null;
}

function stop(): void {
  cancelDebounce();
  current?.abort();
  current = null;
  searchState.searching = false;
}

function clearResults(): void {
  ranked = null;
  searchState.hits = ref([]);
  searchState.received = 0;
  searchState.shown = SEARCH_PAGE;
  searchState.searched = false;
  searchState.error = null;
  searchState.building = null;
  searchState.active = -1;
  searchState.ranQuery = '';
}

// Keys typed between Ctrl+F and the moment the input has focus would otherwise go to the page and be lost
// ("invoice" became "ice"). From openSearch until the input reports itself ready, printable keys and Backspace
// are caught at the window and written into the query; the input then starts from that query.
let earlyKeys: ((e: KeyboardEvent) => void) | null = null;
/** The first key typed after opening replaces a query left from before (as if the old text were selected). */
let replaceOnType = false;

function catchEarlyKeys(): void {
  if (earlyKeys) return;
  earlyKeys = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (e.target instanceof HTMLElement && e.target.classList.contains('search__input')) return;
    const old = replaceOnType ? '' : searchState.query;
    if (e.key.length === 1) setSearchQuery(old + e.key);
    else if (e.key === 'Backspace') setSearchQuery(old.slice(0, -1));
    else return;
    replaceOnType = false;
    e.preventDefault();
    e.stopPropagation();
  };
  window.addEventListener('keydown', earlyKeys, true);
}

/**
 * The input is mounted and focused: stop catching keys at the window. Returns whether keys were caught (the
 * input then puts its caret at the end rather than selecting the old query).
 */
export function searchInputReady(): boolean {
  if (earlyKeys) window.removeEventListener('keydown', earlyKeys, true);
  earlyKeys = null;
  const typed = !replaceOnType;
  replaceOnType = false;
  return typed;
}

export function openSearch(basePath: string): void {
  if (searchState.basePath !== basePath) {
    stop();
    clearResults();
    searchState.query = '';
  }
  searchState.basePath = basePath;
  replaceOnType = searchState.query !== '';
  if (!searchState.open) catchEarlyKeys();
  searchState.open = true;
}

export function closeSearch(): void {
  stop();
  searchInputReady();
  searchState.open = false;
}

/** The input changed: the search runs once typing pauses for SEARCH_DEBOUNCE_MS; an empty query clears. */
export function setSearchQuery(query: string): void {
  searchState.query = query;
  // A result chosen with ↑/↓ belongs to the results of the query before: Enter now searches, it does not open it.
  searchState.active = -1;
  cancelDebounce();
  if (!query.trim()) {
    stop();
    clearResults();
    return;
  }
  debounce = setTimeout(() => void runSearch(query), SEARCH_DEBOUNCE_MS);
}

/** Enter without a chosen result: search now, unless these results already belong to this query. */
export function searchNow(): Promise<void> {
  cancelDebounce();
  const q = searchState.query;
  if (q === searchState.ranQuery && (searchState.searching || searchState.searched)) return Promise.resolve();
  return runSearch(q);
}

/** Runs the query; results are shown (best first) as they stream in. A new search aborts the one before it. */
export async function runSearch(query = searchState.query): Promise<void> {
  stop();
  clearResults();
  searchState.query = query;
  if (!query.trim()) return;
  const controller = new AbortController();
  current = controller;
  const terms = queryTerms(query);
  const runs = new RankedRuns<SearchHit>(terms);
  ranked = runs;
  let rankTimer: ReturnType<typeof setTimeout> | null = null;
  const publish = () => {
    rankTimer = null;
    if (current !== controller) return;
    searchState.received = runs.size;
    showHead();
  };
  searchState.ranQuery = query;
  searchState.searching = true;
  searchState.searched = true;
  try {
    await streamSearch(
      searchState.basePath,
      query,
      controller.signal,
      (batch) => {
        if (current !== controller) return;
        const first = !runs.size;
        runs.add(batch);
        rankTimer ??= setTimeout(publish, first ? 0 : SHOW_EVERY_MS);
      },
      (res) => {
        if (current === controller) searchState.building = indexBuilding(res);
      },
    );
  } catch (e) {
    if (current !== controller || (e instanceof DOMException && e.name === 'AbortError')) return;
    searchState.error = isApiError(e) ? e.message.trim() : String(e);
  } finally {
    if (current === controller) {
      if (rankTimer) clearTimeout(rankTimer);
      publish();
      current = null;
      searchState.searching = false;
    } else if (rankTimer) clearTimeout(rankTimer);
  }
}

/** The list was scrolled near its end: show another page of what has arrived. */
export function showMoreResults(): void {
  if (searchState.shown >= searchState.received) return;
  searchState.shown += SEARCH_PAGE;
  showHead();
}

/** ↑/↓ in the input: moves the chosen result, showing more results when it reaches the end of those shown. */
export function moveActive(step: 1 | -1): void {
  const n = searchState.received;
  if (!n) return;
  // Up from the first (or from none) goes to the last one shown; down past it shows one page more, and from the
  // very last back to the first: 250,000 results are never rendered all at once.
  const last = Math.min(n, searchState.shown) - 1;
  let next = searchState.active < 0 ? (step > 0 ? 0 : last) : searchState.active + step;
  if (next < 0) next = last;
  else if (next >= n) next = 0;
  else if (next > last) {
    searchState.shown += SEARCH_PAGE;
    showHead();
  }
  searchState.active = next;
}

/** A "type:x" shortcut: replaces any type filter in the query with this one, then searches. */
export function searchType(type: string): Promise<void> {
  const rest = searchState.query.replace(/(^|\s)type:\S+/g, ' ').trim();
  return runSearch(`type:${type}${rest ? ` ${rest}` : ''}`);
}
