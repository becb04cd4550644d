/** Parses Go-style durations ("2h", "30m", "1h30m", "45s", "500ms") into milliseconds; null when malformed. */
export function parseDuration(text: string): number | null {
  const s = text.trim();
  if (!s) return null;
  if (/^\d+$/.test(s)) return Number(s) * 1000; // a bare number means seconds
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * unit[m[2]!]!;
    consumed = re.lastIndex;
  }
  return consumed === s.length && total > 0 ? Math.round(total) : null;
}

/** Formats milliseconds back to the shortest Go-style duration string. */
export function formatDuration(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [u, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n}${u}`);
    rest -= n * size;
  }
  if (rest) parts.push(`${rest}ms`);
  return parts.join('') || '0s';
}
