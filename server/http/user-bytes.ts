// One policy for every response whose bytes a user or an admin controls: raw files, public downloads, previews,
// subtitles, archives, the branding folder and the custom stylesheet. They are served from our origin, so nothing
// in them may run: no script, no plugin, and a sandbox (a unique origin) for anything a browser could render as a
// document (HTML, SVG, XML). PDFs alone keep the browser's viewer, which the sandbox would block.
const CSP = "default-src 'none'; img-src 'self' data: blob:; media-src 'self' blob:; style-src 'unsafe-inline'; script-src 'none'; object-src 'none'; frame-ancestors 'self'";

/** The headers every response carrying user- or admin-controlled bytes gets, whatever its route. */
export function userBytesHeaders(mime: string): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': mime === 'application/pdf' ? CSP : `${CSP}; sandbox`,
  };
}
