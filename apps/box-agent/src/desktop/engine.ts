import type {
  DesktopPort,
  KeyCombo,
  MouseButton,
  Point,
  Region,
  ScreenSize,
  ScrollDirection,
} from '@sessionboxer/mcp-adapters/desktop';
import { glidePath } from './glide';
import { encodePng } from './png';
import { run as runHere, type RunOptions } from './run';
import { cropScale } from './scale';
import * as s from './script';
import { XdotoolScript, type XdotoolSpawn } from './xdotool';
import { decodeXwd, type RgbImage } from './xwd';

export interface DesktopEngineOptions {
  /** The X display, ":1" in a box. */
  display: string;
  screen: ScreenSize;
  /** false jumps the pointer instead of gliding (SESSIONBOXER_MOUSE_GLIDE=0). */
  glide: boolean;
  /** Pause between typed keys (SESSIONBOXER_TYPE_DELAY_MS). */
  typeDelayMs: number;
  /** Where xwd and xdotool run: this machine by default; a sandbox's desktop runs them in its box. */
  programs?: DesktopPrograms;
}

export interface DesktopPrograms {
  run: (command: string, args: readonly string[], opts: RunOptions) => Promise<Buffer>;
  spawn: XdotoolSpawn;
}

/** The spec's chunk size: each chunk is one xdotool, so a long text shows up progressively. */
export const TYPE_CHUNK = 50;
const CAPTURE_TIMEOUT_MS = 10_000;
/**
 * How long a call waits for a display that is not up: the daemon starts Xvfb alongside
 * everything else (~0.3 s) and restarts a dead one after 0.25 s and more, and an agent's first
 * screenshot should not fail for that. xwd and xdotool say so before doing anything, so
 * trying again is safe.
 */
export const DISPLAY_WAIT_MS = 3_000;
const NO_DISPLAY = /open display/i;

/**
 * `xdotool type --delay D` sleeps D/4 after each key-down and D/4 after each key-up (measured
 * with xev: --delay 100 gives 25 ms press→release and 25 ms release→next press), so presses
 * come D/2 apart. The spec's figure is the time between key presses: ask xdotool for twice it.
 */
export function xdotoolTypeDelay(betweenPressesMs: number): number {
  return betweenPressesMs * 2;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `text` in chunks of `size` characters, never splitting a character (emoji, CJK…). */
export function chunks(text: string, size = TYPE_CHUNK): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/**
 * The box's display driven by xdotool and read by xwd, with no shell anywhere. Input goes
 * through one queue, so a parallel call never interleaves its events with another's glide;
 * hold_key waits outside it, so another call can run while the keys are down.
 */
export class DesktopEngine implements DesktopPort {
  readonly screen: ScreenSize;
  private readonly script: XdotoolScript;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly held = new Set<readonly KeyCombo[]>();
  private readonly run: DesktopPrograms['run'];

  constructor(private readonly opts: DesktopEngineOptions) {
    this.screen = opts.screen;
    this.script = new XdotoolScript(opts.display, 'xdotool', opts.programs?.spawn);
    this.run = opts.programs?.run ?? runHere;
  }

  screenshot(): Promise<Buffer> {
    return this.exclusive(async () => encodePng(await this.capture()));
  }

  /** The region scaled to `size` (the whole screen's size unless given). */
  zoom(region: Region, size: ScreenSize = this.screen): Promise<Buffer> {
    return this.exclusive(async () => {
      const image = await this.capture();
      if (region.x2 > image.width || region.y2 > image.height) {
        throw new Error(
          `the display is ${image.width}×${image.height}, smaller than SESSIONBOXER_SCREEN says`,
        );
      }
      return encodePng(cropScale(image, region, size.width, size.height));
    });
  }

  cursor(): Promise<Point> {
    return this.exclusive(() => this.runScript([]));
  }

  move(to: Point): Promise<void> {
    return this.act(to, []);
  }

  click(button: MouseButton, count: number, at?: Point, modifiers?: KeyCombo): Promise<void> {
    return this.act(at, s.withModifiers(modifiers, s.clickLines(button, count)));
  }

  /** `modifiers` (a sandbox's drag) are held from before the press to after the release. */
  drag(from: Point, to: Point, modifiers?: KeyCombo): Promise<void> {
    return this.exclusive(async () => {
      const travel = this.opts.glide ? s.glideLines(glidePath(from, to)) : [s.moveLine(to)];
      const settle = s.sleepLine(s.DRAG_SETTLE_MS);
      const press = [s.buttonLine('mousedown', 'left'), settle, ...travel, settle];
      const lines = [
        ...(await this.approach(from)),
        ...s.withModifiers(modifiers, [...press, s.buttonLine('mouseup', 'left')]),
      ];
      await this.runScript(lines);
    });
  }

  mouseDown(at?: Point): Promise<void> {
    return this.act(at, [s.buttonLine('mousedown', 'left')]);
  }

  mouseUp(at?: Point): Promise<void> {
    return this.act(at, [s.buttonLine('mouseup', 'left')]);
  }

  type(text: string): Promise<void> {
    const delay = this.opts.typeDelayMs;
    return this.exclusive(async () => {
      for (const chunk of chunks(text)) {
        // One argv element after `--`: xdotool types it; nothing parses it.
        const args = ['type', '--delay', String(xdotoolTypeDelay(delay)), '--', chunk];
        const timeoutMs = chunk.length * (delay + 20) + CAPTURE_TIMEOUT_MS;
        const opts = { display: this.opts.display, timeoutMs };
        await this.whenUp(() => this.run('xdotool', args, opts));
      }
    });
  }

  key(presses: readonly KeyCombo[]): Promise<void> {
    return this.act(undefined, s.keyLines(presses));
  }

  async holdKey(presses: readonly KeyCombo[], seconds: number): Promise<void> {
    await this.act(undefined, s.keyDownLines(presses));
    this.held.add(presses);
    try {
      await this.wait(seconds);
    } finally {
      this.held.delete(presses);
      await this.act(undefined, s.keyUpLines(presses));
    }
  }

  scroll(dir: ScrollDirection, amount: number, at?: Point, modifiers?: KeyCombo): Promise<void> {
    return this.act(at, s.withModifiers(modifiers, s.wheelLines(dir, amount)));
  }

  wait(seconds: number): Promise<void> {
    return sleep(seconds * 1000);
  }

  /** Releases keys a hold_key still holds (the server is stopping mid-hold), then xdotool. */
  async close(): Promise<void> {
    const held = [...this.held];
    this.held.clear();
    for (const presses of held) await this.act(undefined, s.keyUpLines(presses)).catch(() => {});
    this.script.close();
  }

  private async capture(): Promise<RgbImage> {
    const { width, height } = this.screen;
    const xwd = await this.whenUp(() =>
      this.run('xwd', ['-root', '-silent'], {
        display: this.opts.display,
        timeoutMs: CAPTURE_TIMEOUT_MS,
        // Room for a display larger than configured, so the error says so instead of "too much".
        maxBuffer: width * height * 4 * 4 + (1 << 20),
      }),
    );
    return decodeXwd(xwd);
  }

  /** The lines that bring the pointer to `to`: a glide from where it is, or a jump. */
  private async approach(to: Point | undefined): Promise<string[]> {
    if (!to) return [];
    if (!this.opts.glide) return [s.moveLine(to)];
    return s.glideLines(glidePath(await this.runScript([]), to));
  }

  /** Moves to `at` (when given), then `after`, as one batch in the queue. */
  private act(at: Point | undefined, after: string[]): Promise<void> {
    return this.exclusive(async () => {
      const lines = [...(await this.approach(at)), ...after];
      await this.runScript(lines);
    });
  }

  private runScript(lines: string[]) {
    return this.whenUp(() => this.script.run(lines, s.linesMs(lines)));
  }

  /** `fn`, tried again while the display is not up, for DISPLAY_WAIT_MS at most. */
  private async whenUp<T>(fn: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + DISPLAY_WAIT_MS;
    for (;;) {
      try {
        return await fn();
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (!NO_DISPLAY.test(message)) throw e;
        if (Date.now() >= deadline) {
          const waited = `${DISPLAY_WAIT_MS / 1000} s`;
          throw new Error(
            `${message} (the display ${this.opts.display} was not up within ${waited})`,
          );
        }
        await sleep(100);
      }
    }
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.queue.then(fn, fn);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
