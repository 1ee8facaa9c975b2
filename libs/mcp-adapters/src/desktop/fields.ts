import { z } from 'zod';
import { parseKeys } from './keysyms';
import type { Point, Region, ScreenSize } from './port';

/**
 * Argument builders for the desktop tools, bounded by the screen the server was started with.
 * Every message names its field and says what would be right, because the model reads it.
 */

export const SECONDS_MAX = 60;
export const TYPE_TEXT_MAX = 5_000;
export const KEYS_TEXT_MAX = 500;
export const SCROLL_AMOUNT_MAX = 50;

export function screenText(screen: ScreenSize): string {
  return `${screen.width}×${screen.height}`;
}

function number(field: string) {
  return z.number({
    required_error: `${field} is required`,
    invalid_type_error: `${field} must be a number`,
  });
}

function pixel(field: string, max: number, screen: ScreenSize) {
  const range = `must be from 0 to ${max} (the screen is ${screenText(screen)})`;
  return number(field)
    .int(`${field} must be a whole number of pixels`)
    .min(0, `${field} ${range}`)
    .max(max, `${field} ${range}`);
}

function tuple<T extends [z.ZodTypeAny, ...z.ZodTypeAny[]]>(
  field: string,
  shape: string,
  items: T,
) {
  const message = `${field} must be ${shape}, whole numbers of pixels`;
  const required = `${field} is required (${shape})`;
  return z.tuple(items, {
    errorMap: (_issue, ctx) => ({ message: ctx.data === undefined ? required : message }),
  });
}

/** [x, y] on the screen. */
export function coordinate(field: string, screen: ScreenSize) {
  return tuple(field, '[x, y]', [
    pixel(`${field} x`, screen.width - 1, screen),
    pixel(`${field} y`, screen.height - 1, screen),
  ]);
}

export function toPoint([x, y]: readonly [number, number]): Point {
  return { x, y };
}

/** [x1, y1, x2, y2], x2 and y2 exclusive, so [0, 0, width, height] is the whole screen. */
export function region(field: string, screen: ScreenSize) {
  const { width: w, height: h } = screen;
  return tuple(field, '[x1, y1, x2, y2]', [
    pixel(`${field} x1`, w - 1, screen),
    pixel(`${field} y1`, h - 1, screen),
    pixel(`${field} x2`, w, screen),
    pixel(`${field} y2`, h, screen),
  ]).refine(
    ([x1, y1, x2, y2]) => x2 > x1 && y2 > y1,
    `${field} is empty: it needs x2 > x1 and y2 > y1 ([x1, y1, x2, y2], x2 and y2 exclusive)`,
  );
}

export function toRegion([x1, y1, x2, y2]: readonly number[]): Region {
  return { x1, y1, x2, y2 };
}

/** Seconds from 0 (or just above, when `positive`) to SECONDS_MAX. */
export function seconds(field: string, positive: boolean) {
  const low = `${field} must be ${positive ? 'more than' : 'at least'} 0 seconds`;
  const base = number(field).max(SECONDS_MAX, `${field} must be at most ${SECONDS_MAX} seconds`);
  return positive ? base.gt(0, low) : base.min(0, low);
}

/** Keys as the key tool takes them: "ctrl+a Delete". */
export function keys(field: string, modifiersOnly = false) {
  return z
    .string({
      required_error: `${field} is required`,
      invalid_type_error: `${field} must be a string`,
    })
    .max(KEYS_TEXT_MAX, `${field} must be at most ${KEYS_TEXT_MAX} characters`)
    .superRefine((text, ctx) => {
      const parsed = parseKeys(text, modifiersOnly);
      if ('error' in parsed) ctx.addIssue({ code: 'custom', message: `${field}: ${parsed.error}` });
    });
}

/** Control characters other than newline and tab have no key a keyboard types them with. */
const UNTYPABLE = /[\p{Cc}]/u;

export function typedText(field: string) {
  return z
    .string({
      required_error: `${field} is required`,
      invalid_type_error: `${field} must be a string`,
    })
    .min(1, `${field} must not be empty`)
    .max(TYPE_TEXT_MAX, `${field} must be at most ${TYPE_TEXT_MAX} characters (split it)`)
    .refine(
      (text) => !UNTYPABLE.test(text.replace(/[\n\t]/g, '')),
      `${field} may hold newlines and tabs but no other control characters (use key for those)`,
    );
}
