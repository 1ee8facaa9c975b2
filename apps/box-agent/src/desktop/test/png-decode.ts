import { crc32, inflateSync } from 'node:zlib';

/** A test-side PNG reader (8-bit RGB or RGBA, every filter type), independent of the encoder. */
export interface DecodedPng {
  width: number;
  height: number;
  channels: number;
  /** Unfiltered pixels, `channels` bytes each. */
  pixels: Buffer;
}

const SIGNATURE = '89504e470d0a1a0a';

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The byte PNG's `filter` predicts from its left (a), upper (b) and upper-left (c) bytes. */
function predictor(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4:
      return paeth(a, b, c);
    default:
      throw new Error(`bad filter type ${filter}`);
  }
}

function unfilter(raw: Buffer, width: number, height: number, bpp: number): Buffer {
  const row = width * bpp;
  const out = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (row + 1)];
    const src = y * (row + 1) + 1;
    const dst = y * row;
    for (let i = 0; i < row; i++) {
      const a = i >= bpp ? out[dst + i - bpp] : 0;
      const b = y > 0 ? out[dst - row + i] : 0;
      const c = i >= bpp && y > 0 ? out[dst - row + i - bpp] : 0;
      out[dst + i] = (raw[src + i] + predictor(filter, a, b, c)) & 0xff;
    }
  }
  return out;
}

export function decodePng(png: Buffer): DecodedPng {
  if (png.subarray(0, 8).toString('hex') !== SIGNATURE) throw new Error('not a PNG signature');
  let offset = 8;
  let header: Buffer | undefined;
  const idat: Buffer[] = [];
  for (;;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    const crc = png.readUInt32BE(offset + 8 + length);
    if (crc !== crc32(png.subarray(offset + 4, offset + 8 + length)))
      throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') header = data;
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
    if (type === 'IEND') break;
  }
  if (!header) throw new Error('no IHDR');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const channels = { 2: 3, 6: 4 }[header[9]];
  if (header[8] !== 8 || !channels)
    throw new Error(`unsupported PNG: depth ${header[8]}, colour ${header[9]}`);
  const pixels = unfilter(inflateSync(Buffer.concat(idat)), width, height, channels);
  return { width, height, channels, pixels };
}

/** [r, g, b] at (x, y). */
export function pixelAt(png: DecodedPng, x: number, y: number): number[] {
  const i = (y * png.width + x) * png.channels;
  return [png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]];
}
