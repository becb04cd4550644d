import { request } from './client';
import { resourceApiPath } from './resources';

/** PUT /api/resources{path}: replaces a file's content with the given text. */
export async function saveText(path: string, text: string): Promise<void> {
  await request(resourceApiPath(path), {
    method: 'PUT',
    body: text,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
}
