import { DavConditionError } from '../../services/dav/dav-lock-gate';
import { hrefOf } from './dav-headers';
import { xmlResponse } from './dav-multistatus';
import { escapeXml } from './dav-xml';

/** A precondition refusal (423, 409, 412) with its DAV:error body naming the resources (RFC 4918 §16). */
export function davConditionResponse(e: DavConditionError, prefix: string, status: number): Response {
  const hrefs = e.paths.map((p) => `<D:href>${escapeXml(hrefOf(prefix, p, false))}</D:href>`).join('');
  return xmlResponse(status, `<D:error xmlns:D="DAV:"><D:${e.condition}>${hrefs}</D:${e.condition}></D:error>`);
}

const STATUS: Partial<Record<string, number>> = { LOCKED: 423, EXISTS: 409, PRECONDITION_FAILED: 412 };

/**
 * Runs a WebDAV method: a precondition refusal (DavConditionError: 423, 409, 412) becomes its XML answer naming the
 * resources; anything else goes on to the error plugin. The dispatcher runs every method through it.
 */
export async function withDavConditions(prefix: string, fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    const status = e instanceof DavConditionError ? STATUS[e.code] : undefined;
    if (status) return davConditionResponse(e as DavConditionError, prefix, status);
    throw e;
  }
}
