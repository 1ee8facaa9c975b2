/** An 8-bit RGB image, rows top to bottom, 3 bytes a pixel, no padding. */
export interface RgbImage {
  width: number;
  height: number;
  data: Buffer;
}

/** The XWD header fields this reader uses, by their index among its 25 big-endian CARD32s. */
const F = {
  headerSize: 0,
  version: 1,
  format: 2,
  width: 4,
  height: 5,
  byteOrder: 7,
  bitsPerPixel: 11,
  bytesPerLine: 12,
  visualClass: 13,
  redMask: 14,
  greenMask: 15,
  blueMask: 16,
  ncolors: 19,
} as const;
const HEADER_FIELDS = 25;
const XWD_VERSION = 7;
const Z_PIXMAP = 2;
/** TrueColor and DirectColor: pixels hold their colour; the others index a colormap. */
const COLOUR_VISUALS = new Set([4, 5]);
/** An XWDColor entry: pixel (4), red, green, blue (2 each), flags, pad. */
const COLOR_ENTRY_BYTES = 12;

export class XwdError extends Error {}

function channel(mask: number): { shift: number; max: number } {
  let shift = 0;
  while (shift < 32 && ((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift };
}

/**
 * Reads what `xwd -root -silent` writes on the box's Xvfb (depth 24, 32 bits a pixel,
 * TrueColor) into RGB. The header is big-endian whatever the machine; the pixels are in the
 * byte order the header names. A fast path covers the usual BGRX layout; other TrueColor
 * layouts go through the generic mask path, which is slower but still correct.
 */
export function decodeXwd(file: Buffer): RgbImage {
  if (file.length < HEADER_FIELDS * 4) throw new XwdError('XWD data is shorter than its header');
  const h = (i: number) => file.readUInt32BE(i * 4);
  if (h(F.version) !== XWD_VERSION || h(F.format) !== Z_PIXMAP) {
    throw new XwdError(`unsupported XWD: version ${h(F.version)}, format ${h(F.format)}`);
  }
  if (!COLOUR_VISUALS.has(h(F.visualClass))) {
    throw new XwdError(`unsupported XWD visual class ${h(F.visualClass)} (needs TrueColor)`);
  }
  const width = h(F.width);
  const height = h(F.height);
  const bpp = h(F.bitsPerPixel);
  const stride = h(F.bytesPerLine);
  const offset = h(F.headerSize) + h(F.ncolors) * COLOR_ENTRY_BYTES;
  if (![16, 24, 32].includes(bpp) || stride < (width * bpp) / 8) {
    throw new XwdError(`unsupported XWD layout: ${bpp} bits a pixel, ${stride} bytes a line`);
  }
  if (file.length < offset + stride * height) throw new XwdError('XWD data is truncated');
  const layout = {
    width,
    height,
    stride,
    offset,
    bytes: bpp / 8,
    littleEndian: h(F.byteOrder) === 0,
    masks: [h(F.redMask), h(F.greenMask), h(F.blueMask)] as const,
  };
  const out = Buffer.allocUnsafe(width * height * 3);
  if (isBgrx(layout)) copyBgrx(file, out, layout);
  else copyMasked(file, out, layout);
  return { width, height, data: out };
}

interface Layout {
  width: number;
  height: number;
  stride: number;
  offset: number;
  bytes: number;
  littleEndian: boolean;
  masks: readonly [number, number, number];
}

function isBgrx(l: Layout): boolean {
  const [r, g, b] = l.masks;
  return l.bytes === 4 && l.littleEndian && r === 0xff0000 && g === 0xff00 && b === 0xff;
}

function copyBgrx(src: Buffer, out: Buffer, l: Layout): void {
  let o = 0;
  for (let y = 0; y < l.height; y++) {
    let i = l.offset + y * l.stride;
    for (let x = 0; x < l.width; x++, i += 4) {
      out[o++] = src[i + 2];
      out[o++] = src[i + 1];
      out[o++] = src[i];
    }
  }
}

function readPixel(src: Buffer, i: number, l: Layout): number {
  let value = 0;
  for (let b = 0; b < l.bytes; b++) {
    const byte = src[i + (l.littleEndian ? l.bytes - 1 - b : b)];
    value = value * 256 + byte;
  }
  return value;
}

function copyMasked(src: Buffer, out: Buffer, l: Layout): void {
  const channels = l.masks.map(channel);
  let o = 0;
  for (let y = 0; y < l.height; y++) {
    for (let x = 0; x < l.width; x++) {
      const pixel = readPixel(src, l.offset + y * l.stride + x * l.bytes, l);
      for (const { shift, max } of channels) {
        out[o++] = max ? Math.round((((pixel >>> shift) & max) * 255) / max) : 0;
      }
    }
  }
}
