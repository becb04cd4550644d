import { AppError } from '../../core/errors';

// The pure part of subtitle conversion: bytes of an SRT or ASS file in, WebVTT text out. It runs on the work
// worker (services/work/work.worker.ts), never on the event loop: a 10 MiB file takes most of a second.
// services/files/subtitles.ts decides who may read which file and caches the results.

/** The largest subtitle file converted (converting reads the whole file into memory). */
export const SUBTITLE_LIMIT = 10 * 1024 * 1024;

/** Cues (or lines) converted between two looks at the stop flag. */
const CHECK_EVERY = 2000;
const never = () => false;
const stopped = () => new AppError('UNAVAILABLE', 'the subtitle conversion was stopped');

export type SubtitleFormat = 'vtt' | 'srt' | 'ass';

/** The subtitle format of a file name (case-insensitive extension), or null. */
export function subtitleFormat(name: string): SubtitleFormat | null {
  const m = /\.(vtt|srt|ass|ssa)$/i.exec(name);
  if (!m) return null;
  const ext = m[1]!.toLowerCase();
  return ext === 'ssa' ? 'ass' : (ext as SubtitleFormat);
}

/** Text from bytes: UTF-8 or UTF-16 by their byte order mark, UTF-8 when valid, else Windows-1252 (old SRTs). */
export function decodeText(b: Uint8Array): string {
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b);
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return new TextDecoder('windows-1252').decode(b);
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Milliseconds as a WebVTT timestamp, hh:mm:ss.ttt (hours grow past two digits when needed). */
function vttTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** "h:mm:ss,fff" (SRT) or "h:mm:ss.cc" (ASS) in milliseconds; a short fraction is a decimal fraction. */
function parseTime(t: string): number | null {
  const m = /^(\d{1,4}):(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?$/.exec(t.trim());
  if (!m) return null;
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number((m[4] ?? '0').padEnd(3, '0'));
}

interface Cue {
  id?: string;
  start: number;
  end: number;
  text: string;
}

/** Cue text may hold no blank line (it would end the cue) and no "-->" (it would read as a timing line). */
function cueText(lines: string[]): string {
  return lines
    .map((l) => l.trim().replaceAll('-->', '--&gt;'))
    .filter(Boolean)
    .join('\n');
}

function vtt(cues: Cue[]): string {
  const out = ['WEBVTT', ''];
  for (const c of cues) out.push(...(c.id ? [c.id] : []), `${vttTime(c.start)} --> ${vttTime(c.end)}`, c.text, '');
  return out.join('\n');
}

const SRT_TIMING = /^\s*([\d:,.]+)\s*-->\s*([\d:,.]+)/;

/**
 * SubRip to WebVTT: comma-decimal timestamps become dots, `<br>` becomes a line break, cue numbers stay as cue
 * identifiers, cue text (with its <i>/<b>/<u> tags, which WebVTT shares) is kept; `{\an8}`-style tags that
 * some SRTs carry are dropped; blocks without a timing line are skipped.
 */
export function srtToVtt(text: string, stop: () => boolean = never): string {
  const cues: Cue[] = [];
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/);
  for (let i = 0; i < blocks.length; i++) {
    if (i % CHECK_EVERY === 0 && stop()) throw stopped();
    const block = blocks[i]!;
    const lines = block.split('\n');
    while (lines.length && !lines[0]!.trim()) lines.shift();
    const at = lines.findIndex((l, i) => i < 2 && SRT_TIMING.test(l));
    if (at < 0) continue;
    const [, a, b] = SRT_TIMING.exec(lines[at]!)!;
    const start = parseTime(a!);
    const end = parseTime(b!);
    if (start === null || end === null) continue;
    const body = lines.slice(at + 1).join('\n').replace(/<br\s*\/?>/gi, '\n').replace(/\{\\[^{}]*\}/g, '');
    const id = at === 1 ? lines[0]!.trim() : '';
    cues.push({ id: id && !id.includes('-->') ? id : undefined, start, end, text: cueText(body.split('\n')) });
  }
  return vtt(cues);
}

/**
 * An ASS text field as plain cue text: override blocks `{...}` removed (in one linear scan: no regular
 * expression that a crafted line could make quadratic), `\N` a line break, `\n` a space, `\h` a no-break space,
 * and <, > and & escaped (they are literal in ASS). Drawing commands (`{\p1}` until `{\p0}`) are not text.
 */
function assText(t: string): string {
  let out = '';
  let drawing = false;
  let i = 0;
  while (i < t.length) {
    const open = t.indexOf('{', i);
    const close = open < 0 ? -1 : t.indexOf('}', open + 1);
    if (open < 0 || close < 0) {
      if (!drawing) out += t.slice(i);
      break;
    }
    if (!drawing) out += t.slice(i, open);
    const p = /\\p(\d+)/.exec(t.slice(open + 1, close));
    if (p) drawing = p[1] !== '0';
    i = close + 1;
  }
  out = out.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return cueText(out.replaceAll('\\N', '\n').replaceAll('\\n', ' ').replaceAll('\\h', '\u00a0').split('\n'));
}

const ASS_FORMAT = ['layer', 'start', 'end', 'style', 'name', 'marginl', 'marginr', 'marginv', 'effect', 'text'];

/**
 * (Advanced) SubStation Alpha to WebVTT: the Dialogue lines of the [Events] section, read by its Format line
 * (ASS's default order without one), as cues sorted by start time; styles and positions are not carried over.
 */
export function assToVtt(text: string, stop: () => boolean = never): string {
  const cues: Cue[] = [];
  let inEvents = false;
  let format = ASS_FORMAT;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (i % CHECK_EVERY === 0 && stop()) throw stopped();
    const raw = lines[i]!;
    const line = raw.trim();
    if (line.startsWith('[') && line.endsWith(']')) {
      inEvents = line.toLowerCase() === '[events]';
      continue;
    }
    if (!inEvents) continue;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trimStart();
    if (key === 'format') {
      format = value.split(',').map((f) => f.trim().toLowerCase());
      continue;
    }
    if (key !== 'dialogue') continue;
    // The text field is the last one and may itself hold commas.
    const fields: string[] = [];
    let rest = value;
    for (let i = 0; i < format.length - 1; i++) {
      const c = rest.indexOf(',');
      if (c < 0) break;
      fields.push(rest.slice(0, c));
      rest = rest.slice(c + 1);
    }
    fields.push(rest);
    const start = parseTime(fields[format.indexOf('start')] ?? '');
    const end = parseTime(fields[format.indexOf('end')] ?? '');
    const body = assText(fields[format.indexOf('text')] ?? '');
    if (start === null || end === null || end <= start || !body) continue;
    cues.push({ start, end, text: body });
  }
  cues.sort((a, b) => a.start - b.start);
  return vtt(cues);
}

/** A converted file: decoded by its byte order mark (or UTF-8, or Windows-1252), converted, encoded as UTF-8. */
export function convertSubtitle(bytes: Uint8Array, format: 'srt' | 'ass', stop: () => boolean = never): Uint8Array {
  const text = decodeText(bytes);
  if (stop()) throw stopped();
  return new TextEncoder().encode(format === 'srt' ? srtToVtt(text, stop) : assToVtt(text, stop));
}
