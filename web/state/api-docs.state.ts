import { proxy } from 'valtio';
import { getOpenApi, type ApiDocument } from '../api/openapi';
import { isApiError } from '../api/client';

interface ApiDocsState {
  doc: ApiDocument | null;
  error: { status: number; message: string } | null;
  filter: string;
}

/** The admin's API page: the server's OpenAPI document, loaded once per visit, and the filter text. */
export const apiDocsState = proxy<ApiDocsState>({ doc: null, error: null, filter: '' });

export async function loadApiDocs(): Promise<void> {
  apiDocsState.error = null;
  try {
    apiDocsState.doc = await getOpenApi();
  } catch (e) {
    apiDocsState.doc = null;
    apiDocsState.error = isApiError(e) ? { status: e.status, message: e.message } : { status: 500, message: String(e) };
  }
}

export function setApiFilter(text: string): void {
  apiDocsState.filter = text;
}
