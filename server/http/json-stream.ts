/** Streams a JSON array item by item (never the whole list in memory). */
export function jsonArrayStream<T>(items: AsyncIterable<T>, map: (t: T) => unknown): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const it = items[Symbol.asyncIterator]();
  let first = true;
  let done = false;
  return new ReadableStream({
    async pull(c) {
      if (done) return;
      let chunk = first ? '[' : '';
      for (let n = 0; n < 256; n++) {
        const r = await it.next();
        if (r.done) {
          done = true;
          c.enqueue(enc.encode(chunk + ']'));
          c.close();
          return;
        }
        chunk += (first ? '' : ',') + JSON.stringify(map(r.value));
        first = false;
      }
      c.enqueue(enc.encode(chunk));
    },
    async cancel() {
      await it.return?.(undefined);
    },
  });
}
