// Minimal types for the parts of UTIF (photopea/UTIF.js) the previewer uses.
declare module 'utif' {
  export interface IFD {
    t256?: number[];
    t257?: number[];
    subIFD?: IFD[];
    width: number;
    height: number;
    [tag: string]: unknown;
  }
  export function decode(buffer: ArrayBuffer | Uint8Array): IFD[];
  export function decodeImage(buffer: ArrayBuffer | Uint8Array, ifd: IFD, ifds?: IFD[]): void;
  export function toRGBA8(ifd: IFD): Uint8Array;
}
