/** A SubRip file of about `bytes` bytes whose cue texts carry `tag`, so each file converts to different bytes. */
export function bigSrt(bytes: number, tag: string): string {
  const out: string[] = [];
  let size = 0;
  const two = (n: number) => String(n).padStart(2, '0');
  const ts = (ms: number) => `${two(Math.floor(ms / 3_600_000))}:${two(Math.floor(ms / 60_000) % 60)}:${two(Math.floor(ms / 1000) % 60)},${String(ms % 1000).padStart(3, '0')}`;
  for (let i = 1; size < bytes - 200; i++) {
    const b = `${i}\r\n${ts(i * 2000)} --> ${ts(i * 2000 + 1500)}\r\n<i>${tag} line ${i}</i> of the film<br>and its second line\r\n\r\n`;
    out.push(b);
    size += b.length;
  }
  return out.join('');
}
