import { decodePng, pixelAt } from './test/png-decode';
import { encodePng } from './png';
import { bilinearTaps, cropScale } from './scale';
import { decodeXwd, XwdError, type RgbImage } from './xwd';

/** An XWD file as `xwd -root` writes it: big-endian header, name, colormap, then pixels. */
function xwdFile(
  width: number,
  height: number,
  pixel: (x: number, y: number) => number[],
  layout = { bpp: 32, lsb: true, masks: [0xff0000, 0xff00, 0xff], ncolors: 2 },
): Buffer {
  const name = Buffer.from('xwdump\0');
  const headerSize = 100 + name.length;
  const bytes = layout.bpp / 8;
  const stride = Math.ceil((width * bytes) / 4) * 4;
  const header = Buffer.alloc(100);
  const fields = [headerSize, 7, 2, 24, width, height, 0, layout.lsb ? 0 : 1, 32, 0, 32,
    layout.bpp, stride, 4, ...layout.masks, 8, 256, layout.ncolors, width, height, 0, 0, 0]; // prettier-ignore
  fields.forEach((v, i) => header.writeUInt32BE(v, i * 4));
  const colormap = Buffer.alloc(layout.ncolors * 12, 0xaa);
  const data = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      const [rm, gm, bm] = layout.masks.map((m) => m / (m & -m));
      const [rs, gs, bs] = layout.masks.map((m) => Math.log2(m & -m));
      const v = (((r * rm) / 255) << rs) | (((g * gm) / 255) << gs) | (((b * bm) / 255) << bs);
      const at = y * stride + x * bytes;
      if (layout.lsb) data.writeUIntLE(v >>> 0, at, bytes);
      else data.writeUIntBE(v >>> 0, at, bytes);
    }
  }
  return Buffer.concat([header, name, colormap, data]);
}

const gradient = (x: number, y: number) => [x * 10, y * 20, (x + y) * 5];

describe('XWD to PNG', () => {
  it('reads the usual BGRX layout and encodes a PNG that decodes to the same pixels', async () => {
    const image = decodeXwd(xwdFile(7, 5, gradient));
    expect([image.width, image.height]).toEqual([7, 5]);
    const png = decodePng(await encodePng(image));
    expect([png.width, png.height, png.channels]).toEqual([7, 5, 3]);
    for (let y = 0; y < 5; y++)
      for (let x = 0; x < 7; x++) expect(pixelAt(png, x, y)).toEqual(gradient(x, y));
  });

  it('reads other TrueColor layouts through the masks (16-bit 565, big-endian)', () => {
    const layout = { bpp: 16, lsb: false, masks: [0xf800, 0x07e0, 0x001f], ncolors: 0 };
    const white = decodeXwd(xwdFile(3, 2, () => [255, 255, 255], layout));
    expect([...white.data]).toEqual(new Array(18).fill(255));
    const red = decodeXwd(xwdFile(1, 1, () => [255, 0, 0], layout));
    expect([...red.data]).toEqual([255, 0, 0]);
  });

  it('refuses what it cannot read, saying what', () => {
    expect(() => decodeXwd(Buffer.alloc(10))).toThrow(XwdError);
    const file = xwdFile(2, 2, gradient);
    expect(() => decodeXwd(file.subarray(0, file.length - 1))).toThrow('XWD data is truncated');
    const colormapped = Buffer.from(file);
    colormapped.writeUInt32BE(3, 13 * 4); // PseudoColor
    expect(() => decodeXwd(colormapped)).toThrow(/visual class 3/);
  });

  it('refuses an image whose data does not match its size', async () => {
    await expect(encodePng({ width: 2, height: 2, data: Buffer.alloc(5) })).rejects.toThrow(
      /not 2×2×3/,
    );
  });
});

describe('zoom scaling', () => {
  const image: RgbImage = {
    width: 4,
    height: 2,
    data: Buffer.from([
      ...[0, 0, 0], ...[255, 0, 0], ...[0, 255, 0], ...[0, 0, 255],
      ...[9, 9, 9], ...[9, 9, 9], ...[9, 9, 9], ...[9, 9, 9],
    ]),
  }; // prettier-ignore

  it('samples at pixel centres, clamped to the region', () => {
    const taps = bilinearTaps(1, 2, 4);
    expect([...taps.lo]).toEqual([1, 1, 1, 2]);
    expect([...taps.hi]).toEqual([2, 2, 2, 2]);
    expect([...taps.w]).toEqual([0, 64, 192, 0]);
  });

  it('scales a region to the full size, each axis on its own', () => {
    const out = cropScale(image, { x1: 1, y1: 0, x2: 3, y2: 1 }, 4, 3);
    expect([out.width, out.height]).toEqual([4, 3]);
    const row = [...out.data.subarray(0, 12)];
    expect(row).toEqual([255, 0, 0, 191, 64, 0, 64, 191, 0, 0, 255, 0]);
    expect([...out.data.subarray(24, 36)]).toEqual(row);
  });
});
