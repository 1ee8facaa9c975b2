/** The box's screen in pixels, as SESSIONBOXER_SCREEN configures the display. */
export interface ScreenSize {
  width: number;
  height: number;
}

/** A pixel on the screen, origin at the top-left. */
export interface Point {
  x: number;
  y: number;
}

/** A rectangle [x1, x2) × [y1, y2) of the screen, non-empty and inside it. */
export interface Region {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export type MouseButton = 'left' | 'right' | 'middle';
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

/** One key press: the keys held together, in order ("ctrl+shift+t" is ["ctrl", "shift", "t"]). */
export type KeyCombo = readonly string[];

/** A tool's image answer; the server sends it as MCP image content (image/png, base64). */
export interface PngImage {
  png: Buffer;
}

/**
 * What the desktop tools need from the box's X display. The tools validate every argument
 * against `screen` before calling, so an adapter may trust what it receives; it answers once
 * the display has done the thing (the pointer is there, the keys were sent).
 */
export interface DesktopPort {
  readonly screen: ScreenSize;
  /** The whole screen as PNG bytes. */
  screenshot(): Promise<Buffer>;
  /** The region scaled up to the full screen size, as PNG bytes. */
  zoom(region: Region): Promise<Buffer>;
  cursor(): Promise<Point>;
  /** Moves the pointer to `to` (gliding, unless the box turned that off). */
  move(to: Point): Promise<void>;
  /** Moves to `at` first when given; holds `modifiers` down around the clicks. */
  click(button: MouseButton, count: number, at?: Point, modifiers?: KeyCombo): Promise<void>;
  /** Left button down at `from`, a glide to `to` with it held, then up. */
  drag(from: Point, to: Point): Promise<void>;
  /** Left button down, after moving to `at` when given. */
  mouseDown(at?: Point): Promise<void>;
  /** Left button up, after moving to `at` when given. */
  mouseUp(at?: Point): Promise<void>;
  /** Types `text` at the current focus, paced as the box is configured. */
  type(text: string): Promise<void>;
  /** Presses each combo in turn (all keys of a combo down, then up in reverse order). */
  key(presses: readonly KeyCombo[]): Promise<void>;
  /** Holds the combos down for `seconds`, then releases them. */
  holdKey(presses: readonly KeyCombo[], seconds: number): Promise<void>;
  /** `amount` wheel notches, at `at` when given, with `modifiers` held. */
  scroll(
    direction: ScrollDirection,
    amount: number,
    at?: Point,
    modifiers?: KeyCombo,
  ): Promise<void>;
  /** Lets `seconds` pass. */
  wait(seconds: number): Promise<void>;
}
