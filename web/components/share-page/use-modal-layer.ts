import { useEffect } from 'react';

/**
 * While an overlay of the share page is open (the slideshow, the file viewer), the page beneath is inert: Tab,
 * screen readers and clicks stay in the overlay, which is portalled outside the page for that reason.
 */
export function useModalLayer(): void {
  useEffect(() => {
    const page = document.querySelector('.share-layout');
    page?.setAttribute('inert', '');
    return () => page?.removeAttribute('inert');
  }, []);
}
