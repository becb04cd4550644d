/**
 * YAML through the `yaml` package, loaded at the first use: most starts read no YAML (no config file), and the
 * package cost ~50 ms of every start when imported up front (issue 39). Every YAML read or write goes through here.
 */
type Yaml = typeof import('yaml');
let lib: Yaml | null = null;
const yaml = (): Yaml => (lib ??= require('yaml') as Yaml);

export const parseYaml = (text: string): unknown => yaml().parse(text);
export const toYaml = (data: unknown): string => yaml().stringify(data);
