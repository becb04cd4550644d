import { requestJson } from './client';

/** The parts of the server's OpenAPI document the admin's API page shows. */
export interface ApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
}
export interface ApiOperation {
  summary: string;
  description?: string;
  tags?: string[];
  'x-auth'?: 'none' | 'user' | 'admin' | 'share' | 'metrics';
  'x-websocket'?: boolean;
  parameters?: ApiParameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { description: string }>;
}
export interface ApiDocument {
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, ApiOperation>>;
}

/** GET /api/openapi.json (any logged-in user; the page is in the admin settings). */
export function getOpenApi(): Promise<ApiDocument> {
  return requestJson<ApiDocument>('/openapi.json');
}
