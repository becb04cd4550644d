/** litmus 0.13's groups, the tests each holds (104 in all), and how its output is read. */
export const LITMUS_GROUPS = { basic: 16, copymove: 13, props: 30, locks: 41, http: 4 } as const;
export type LitmusGroup = keyof typeof LITMUS_GROUPS;

export interface GroupResult {
  passed: number;
  failed: string[];
  warnings: string[];
}

/** Reads litmus' output: "NN. name..... FAIL (why)", "SKIPPED", "WARNING: …" and the group's summary line. */
export function parseLitmus(out: string): GroupResult {
  const lines = out.split(/[\r\n]+/);
  const failed: string[] = [];
  const warnings: string[] = [];
  for (const line of lines) {
    const m = /^\s*\d+\.\s(\S+?)\.*\s+(?:\d+\.\s\S+?\.*\s+)?(FAIL|SKIPPED)(.*)$/.exec(line);
    if (m) failed.push(`${m[1]} ${m[2]}${m[3] ? `${m[3]}` : ''}`.trim());
    const w = /^\s*\d+\.\s(\S+?)\.*\s*WARNING:\s*(.*)$/.exec(line);
    if (w) warnings.push(`${w[1]}: ${w[2]}`);
  }
  const s = /summary for `\w+': of (\d+) tests run: (\d+) passed, (\d+) failed/.exec(out);
  return { passed: s ? Number(s[2]) : 0, failed, warnings };
}
