import type {
  KeyCombo,
  MouseButton,
  Point,
  ScrollDirection,
} from '@sessionboxer/mcp-adapters/desktop';
import type { GlideStep } from './glide';

/**
 * Lines for `xdotool -`, the long-lived xdotool that reads commands from its stdin. Pure, so
 * what each tool sends is unit-tested. Its script language also has `exec`, so every value
 * put on a line is checked to be a plain number or key name here, whatever the caller checked.
 */

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
/** X has no wheel: a notch is a click of buttons 4–7. */
const WHEEL: Record<ScrollDirection, number> = { up: 4, down: 5, left: 6, right: 7 };
/** Between the clicks of a double or triple click: well inside every toolkit's multi-click time. */
export const CLICK_GAP_MS = 40;
/** Between wheel notches, so programs that animate scrolling see separate notches. */
export const NOTCH_GAP_MS = 20;
/** After a press and before a release in a drag, so drag thresholds and drop targets react. */
export const DRAG_SETTLE_MS = 50;
/** xdotool's own default between the keys of `key`, stated so the timing is ours. */
export const KEY_GAP_MS = 12;

const KEY_TOKEN = /^[A-Za-z0-9_]+$/;

export class ScriptValueError extends Error {}

function int(value: number): string {
  if (!Number.isInteger(value)) throw new ScriptValueError(`not a whole number: ${value}`);
  return String(value);
}

function combo(keys: KeyCombo): string {
  if (keys.length === 0 || !keys.every((k) => KEY_TOKEN.test(k))) {
    throw new ScriptValueError(`not a key combination: ${JSON.stringify(keys)}`);
  }
  return keys.join('+');
}

export function sleepLine(ms: number): string {
  return `sleep ${(Math.max(0, ms) / 1000).toFixed(4)}`;
}

export function moveLine(to: Point): string {
  return `mousemove ${int(to.x)} ${int(to.y)}`;
}

export function glideLines(path: readonly GlideStep[]): string[] {
  return path.flatMap((step) =>
    step.delayMs > 0 ? [sleepLine(step.delayMs), moveLine(step)] : [moveLine(step)],
  );
}

/** `count` presses and releases of X button `b`, `gapMs` apart. */
function presses(b: number, count: number, gapMs: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) lines.push(sleepLine(gapMs));
    lines.push(`mousedown ${b}`, `mouseup ${b}`);
  }
  return lines;
}

export function clickLines(button: MouseButton, count: number): string[] {
  return presses(BUTTONS[button], count, CLICK_GAP_MS);
}

export function wheelLines(direction: ScrollDirection, notches: number): string[] {
  return presses(WHEEL[direction], notches, NOTCH_GAP_MS);
}

export function buttonLine(action: 'mousedown' | 'mouseup', button: MouseButton): string {
  return `${action} ${BUTTONS[button]}`;
}

/** `inner` with `modifiers` held down around it (released in reverse order). */
export function withModifiers(modifiers: KeyCombo | undefined, inner: string[]): string[] {
  if (!modifiers || modifiers.length === 0) return inner;
  const held = combo(modifiers);
  const released = combo([...modifiers].reverse());
  return [`keydown ${held}`, ...inner, `keyup ${released}`];
}

export function keyLines(presses: readonly KeyCombo[]): string[] {
  return [`key --delay ${KEY_GAP_MS} ${presses.map(combo).join(' ')}`];
}

export function keyDownLines(presses: readonly KeyCombo[]): string[] {
  return presses.map((p) => `keydown ${combo(p)}`);
}

export function keyUpLines(presses: readonly KeyCombo[]): string[] {
  return [...presses].reverse().map((p) => `keyup ${combo([...p].reverse())}`);
}

/** How long the sleeps of `lines` take, for the bound on the batch that runs them. */
export function linesMs(lines: readonly string[]): number {
  return lines.reduce((ms, line) => {
    const m = /^sleep (\d+(?:\.\d+)?)$/.exec(line);
    return m ? ms + Number(m[1]) * 1000 : ms;
  }, 0);
}
