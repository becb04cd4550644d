/** Build version; scripts/build.ts defines FILEDECK_VERSION at compile time. */
declare const FILEDECK_VERSION: string | undefined;
export const VERSION: string = typeof FILEDECK_VERSION === 'string' ? FILEDECK_VERSION : '0.1.0-dev';
