const QUOTE = 34;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const COMMA = 44;
const COLON = 58;

/**
 * Cuts the `items` array out of a JSON object read piece by piece: `push` answers the text of each complete
 * element of the top-level `items` array as soon as its last character has arrived, and `outer()` the object
 * with that array left empty (`"items":[]`), to parse once at the end. A listing of 100,000 items can then be
 * parsed in small batches between frames instead of in one long task, and its first items shown before the
 * last ones have arrived.
 *
 * It is a scanner, not a validator: it tracks strings (with escapes) and nesting only, and relies on the
 * final JSON.parse of the batches and of `outer()` to reject malformed text. Only a key of the top-level
 * object named exactly `items` whose value is an array is cut out; a folder without one (a file) stays whole.
 */
export class JsonItemsSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1 the next string is a key (after `{` or `,`), not a value (after `:`). */
  private expectKey = false;
  private keyStart = -1;
  private lastKey = '';
  private mode: 'outer' | 'items' | 'after' = 'outer';
  private readonly outerParts: string[] = [];
  /** Text not yet handed on: it starts at `segment` (outer text) or at the open item. */
  private buf = '';
  private segment = 0;
  private itemStart = -1;
  private before: string | null = null;

  /** Feeds the next piece of text; answers the items completed by it, as JSON text. */
  push(text: string): string[] {
    const out: string[] = [];
    const from = this.buf.length;
    const buf = (this.buf += text);
    // Most of the text is inside strings (paths, names, dates): their bodies are skipped with indexOf up to the next
    // quote or backslash instead of being read character by character (10,000 items in 64 KiB pieces, measured
    // alternating: Chromium 6.9-9.0 -> 3.7-8.7 ms, Bun 3.7-4.2 -> 3.0-3.1 ms). `slash` and `quote` are the next of
    // each at or after the scan (-1: none left in this piece), looked for again only once passed, so a string of many
    // escapes (a text file's content) is not searched to its end once per escape.
    let slash = buf.indexOf('\\', from);
    let quote = buf.indexOf('"', from);
    for (let i = from; i < buf.length; i++) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        if (slash !== -1 && slash < i) slash = buf.indexOf('\\', i);
        if (quote !== -1 && quote < i) quote = buf.indexOf('"', i);
        if (slash !== -1 && (quote === -1 || slash < quote)) {
          this.escaped = true;
          i = slash;
          continue;
        }
        if (quote === -1) break; // the string goes on in the next piece
        i = quote;
        this.inString = false;
        if (this.depth === 1 && this.mode === 'outer') this.lastKey = this.expectKey ? buf.slice(this.keyStart + 1, i) : '';
        continue;
      }
      const c = buf.charCodeAt(i);
      if (c === QUOTE) {
        this.inString = true;
        this.keyStart = i;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.depth++;
        if (this.depth === 1) this.expectKey = true;
        else if (this.mode === 'outer' && this.depth === 2 && c === OPEN_ARRAY && this.lastKey === 'items' && !this.expectKey) {
          this.mode = 'items';
          this.outerParts.push(buf.slice(this.segment, i + 1));
          this.before = this.outerParts.join('');
        } else if (this.mode === 'items' && this.depth === 3 && c === OPEN_OBJECT) this.itemStart = i;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.depth--;
        if (this.mode === 'items') {
          if (this.depth === 2 && this.itemStart >= 0) {
            out.push(buf.slice(this.itemStart, i + 1));
            this.itemStart = -1;
          } else if (this.depth === 1) {
            this.mode = 'after';
            this.segment = i;
          }
        }
      } else if (this.depth === 1) {
        if (c === COMMA) this.expectKey = true;
        else if (c === COLON) this.expectKey = false;
      }
    }
    this.keep();
    return out;
  }

  /** The object without its items (`"items":[]`) once all text has been pushed; unparseable if the text was cut short. */
  outer(): string {
    return this.outerParts.join('') + (this.mode === 'items' ? '' : this.buf.slice(this.segment));
  }

  /** The text before the items (`{...,"items":[`: the folder's own fields) once they have started, else null. */
  beforeItems(): string | null {
    return this.before;
  }

  /** Whether an `items` array was found. */
  get hasItems(): boolean {
    return this.mode !== 'outer';
  }

  /**
   * Drops what was handed on, keeping only an open item's text (inside the items) or a key still being read
   * (outside them), so memory holds about one item besides the outer text.
   */
  private keep(): void {
    if (this.mode === 'items') {
      this.buf = this.itemStart >= 0 ? this.buf.slice(this.itemStart) : '';
      this.itemStart = this.itemStart >= 0 ? 0 : -1;
    } else {
      const cut = this.inString ? this.keyStart : this.buf.length;
      this.outerParts.push(this.buf.slice(this.segment, cut));
      this.buf = this.buf.slice(cut);
      this.keyStart = 0;
    }
    this.segment = 0;
  }
}
