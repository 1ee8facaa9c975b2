import type { Region } from '@sessionboxer/mcp-adapters/desktop';
import type { RgbImage } from './xwd';

/** Weights in 1/256ths, so the inner loop stays in integers. */
const ONE = 256;

interface Taps {
  /** First source index (already times the pixel/row size where that helps the caller). */
  lo: Int32Array;
  hi: Int32Array;
  /** Weight of `hi`, 0..256. */
  w: Int32Array;
}

/**
 * For each of `out` destination positions, the two source positions (within `start` to
 * `start + length - 1`) and the weight between them, sampling at pixel centres.
 */
export function bilinearTaps(start: number, length: number, out: number, unit = 1): Taps {
  const taps = { lo: new Int32Array(out), hi: new Int32Array(out), w: new Int32Array(out) };
  const ratio = length / out;
  for (let d = 0; d < out; d++) {
    const s = Math.min(Math.max((d + 0.5) * ratio - 0.5, 0), length - 1);
    const lo = Math.floor(s);
    taps.lo[d] = (start + lo) * unit;
    taps.hi[d] = (start + Math.min(lo + 1, length - 1)) * unit;
    taps.w[d] = Math.round((s - lo) * ONE);
  }
  return taps;
}

/**
 * The region [x1, x2) × [y1, y2) of `image`, scaled to width × height, each axis on its own
 * (the zoom tool's contract: zoomed x maps back to x1 + x·(x2 − x1)/width).
 */
export function cropScale(image: RgbImage, region: Region, width: number, height: number) {
  const stride = image.width * 3;
  const xs = bilinearTaps(region.x1, region.x2 - region.x1, width, 3);
  const ys = bilinearTaps(region.y1, region.y2 - region.y1, height, stride);
  const src = image.data;
  const out = Buffer.allocUnsafe(width * height * 3);
  let o = 0;
  for (let y = 0; y < height; y++) {
    const top = ys.lo[y];
    const bottom = ys.hi[y];
    const wy = ys.w[y];
    for (let x = 0; x < width; x++) {
      const left = xs.lo[x];
      const right = xs.hi[x];
      const wx = xs.w[x];
      for (let c = 0; c < 3; c++) {
        const a = src[top + left + c] * (ONE - wx) + src[top + right + c] * wx;
        const b = src[bottom + left + c] * (ONE - wx) + src[bottom + right + c] * wx;
        out[o++] = (a * (ONE - wy) + b * wy + (ONE * ONE) / 2) >> 16;
      }
    }
  }
  return { width, height, data: out } satisfies RgbImage;
}
