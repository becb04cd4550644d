/** Whether a request carries a body with at least one byte (MKCOL: 415), reading at most a little of it. */
export async function hasBody(request: Request): Promise<boolean> {
  if (!request.body) return false;
  if (request.headers.get('content-length') === '0') return false;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    if (value.byteLength > 0) {
      await reader.cancel().catch(() => {});
      return true;
    }
  }
}
