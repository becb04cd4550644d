import { expect, test } from 'bun:test';
import CRC32 from 'crc-32';
import { nativeCrcBuf } from '../../server/services/archive/archiver-stream'; // gives crc-32 zlib's native checksum

// zip-stream checksums each chunk with crc-32's `buf`, seeding it with the previous result (a 4-byte zero buffer
// for the first chunk) and reading it as unsigned: the native replacement must keep that contract exactly.
test('crc-32 buf, replaced by the native checksum, keeps its contract chunk by chunk', () => {
  expect(CRC32.buf as unknown).toBe(nativeCrcBuf);
  const check = new TextEncoder().encode('123456789');
  expect(CRC32.buf(check) >>> 0).toBe(0xcbf43926);
  expect(CRC32.buf(check, Buffer.alloc(4) as unknown as number) >>> 0).toBe(0xcbf43926);
  const data = crypto.getRandomValues(new Uint8Array(100_000));
  let seed: number = Buffer.alloc(4) as unknown as number;
  for (let at = 0; at < data.length; at += 7_919) seed = CRC32.buf(data.subarray(at, at + 7_919), seed) >>> 0;
  expect(seed).toBe(Bun.hash.crc32(data) >>> 0);
  expect(CRC32.buf(new Uint8Array(0), 0)).toBe(0);
});
