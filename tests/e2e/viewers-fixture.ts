import { Transformer } from '@napi-rs/image';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { loginThroughForm } from './browser';

/** RGBA pixels of a diagonal gradient with a dark frame, so resized and original images differ visibly. */
function gradient(width: number, height: number, tint: [number, number, number]): Uint8Array {
  const px = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const frame = x < 8 || y < 8 || x >= width - 8 || y >= height - 8;
      const f = (x + y) / (width + height);
      px[i] = frame ? 20 : Math.round(tint[0] * f + 40 * (1 - f));
      px[i + 1] = frame ? 20 : Math.round(tint[1] * f + 60 * (1 - f));
      px[i + 2] = frame ? 20 : Math.round(tint[2] * f + 120 * (1 - f));
      px[i + 3] = 255;
    }
  }
  return px;
}

export const png = (w: number, h: number, tint: [number, number, number] = [250, 180, 60]) => Transformer.fromRgbaPixels(gradient(w, h, tint), w, h).png();
export const jpeg = (w: number, h: number, tint: [number, number, number] = [90, 200, 140]) => Transformer.fromRgbaPixels(gradient(w, h, tint), w, h).jpeg(85);
export const tiff = (w: number, h: number, tint: [number, number, number] = [230, 90, 160]) => Transformer.fromRgbaPixels(gradient(w, h, tint), w, h).tiff();

/** A mono 16-bit PCM WAV of a sine tone (header written by hand). */
export function wav(seconds: number, rate = 8000, hz = 440): Buffer {
  const samples = Math.round(seconds * rate);
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // fmt chunk size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) buf.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 12000), 44 + i * 2);
  return buf;
}

/** A one-page PDF written by hand, with a correct cross-reference table. */
export function pdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Writes a file, creating its folder. */
export function put(root: string, rel: string, data: string | Uint8Array): void {
  const full = join(root, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, data);
}

/** A real HEIC photo at `root/rel`, encoded by heif-enc (Debian libheif-examples) from a PNG made in `scratch`. */
export async function heic(scratch: string, root: string, rel: string, w: number, h: number): Promise<void> {
  const src = join(scratch, 'src.png');
  put(scratch, 'src.png', await png(w, h, [60, 140, 230]));
  mkdirSync(join(root, rel, '..'), { recursive: true });
  const r = Bun.spawnSync(['heif-enc', '-q', '40', src, '-o', join(root, rel)], { stdout: 'ignore' });
  if (r.exitCode !== 0) throw new Error(`heif-enc failed (${r.exitCode})`);
}

export { loginAs as login } from './browser';

/** The decoded names of a folder's items in the server's order, for the previewer's previous/next. */
export async function listing(page: Page, base: string, path: string): Promise<{ name: string; type: string; isDir: boolean }[]> {
  // The page's current token: the session renews (and so replaces) it now and then.
  const token = (await page.evaluate(() => localStorage.getItem('jwt'))) ?? '';
  const res = await fetch(`${base}/api/resources${path}`, { headers: { 'X-Auth': token } });
  if (!res.ok) throw new Error(`listing ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { items: { name: string; type: string; isDir: boolean }[] }).items;
}
