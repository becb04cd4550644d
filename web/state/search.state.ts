import { proxy } from 'valtio/vanilla';

/** The search overlay (owned by the viewers slice). Other code only calls openSearch/closeSearch. */
export const searchState = proxy({ open: false, basePath: '/' });

export function openSearch(basePath: string): void {
  searchState.basePath = basePath;
  searchState.open = true;
}

export function closeSearch(): void {
  searchState.open = false;
}
