/** One numbered schema step, written for both engines (see migrations.ts). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  pg: string;
}
