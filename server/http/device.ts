/** The browser and system a User-Agent names, in a few words ("Firefox on Linux"); "" when it names neither. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return '';
  const ua = userAgent.slice(0, 512);
  const browser =
    /Edg\//.test(ua) ? 'Edge'
    : /OPR\//.test(ua) ? 'Opera'
    : /Firefox\//.test(ua) ? 'Firefox'
    : /Chrom(e|ium)\//.test(ua) ? 'Chrome'
    : /Safari\//.test(ua) ? 'Safari'
    : /^curl\//.test(ua) ? 'curl'
    : /rclone\//.test(ua) ? 'rclone'
    : '';
  const system =
    /Android/.test(ua) ? 'Android'
    : /iPhone|iPad|iOS/.test(ua) ? 'iOS'
    : /Windows/.test(ua) ? 'Windows'
    : /Mac OS X|Macintosh/.test(ua) ? 'macOS'
    : /Linux|X11/.test(ua) ? 'Linux'
    : '';
  if (browser && system) return `${browser} on ${system}`;
  return browser || system || ua.split(/[\s/]/)[0]!.slice(0, 40);
}
