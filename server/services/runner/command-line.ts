import { invalid } from '../../core/errors';

/**
 * Splits a command line into arguments the way a POSIX shell would tokenise words, and nothing more: spaces
 * separate, '...' is literal, "..." allows \" and \\, a backslash escapes the next character. Operators such as
 * ; && | $( ) and backticks are ordinary characters here: no shell ever sees them.
 */
export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw invalid('unterminated quote');
      cur += line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) i++;
        cur += line[i];
        i++;
      }
      if (i >= line.length) throw invalid('unterminated quote');
      i++;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[i + 1];
      i += 2;
    } else {
      cur += c;
      i++;
    }
  }
  if (inWord) out.push(cur);
  return out;
}
