import { proxy } from 'valtio/vanilla';

interface ListingFilterState {
  /** What the "filter this folder" box holds; matched as a case-insensitive substring of names. */
  text: string;
  /** The folder it was typed in: another folder starts unfiltered. */
  folder: string;
}

/** The listing's filter: client-side over the folder already loaded, no request. */
export const listingFilter = proxy<ListingFilterState>({ text: '', folder: '' });

export function setListingFilter(folder: string, text: string): void {
  listingFilter.folder = folder;
  listingFilter.text = text;
}

export function clearListingFilter(): void {
  listingFilter.text = '';
}

/** The filter text in force for `folder` ('' when it was typed in another one). */
export function filterFor(snapshot: { text: string; folder: string }, folder: string): string {
  return snapshot.folder === folder ? snapshot.text : '';
}
