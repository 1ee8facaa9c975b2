import type { ScreenSize } from '@sessionboxer/mcp-adapters/desktop';
import type { TtsSettings } from './recording/tts-choice';

/**
 * The desktop's settings, read by both the daemon (which starts the display) and the desktop
 * MCP server (which drives it); the daemon passes its values on to the server in .mcp.json.
 */
export interface DesktopConfig {
  /** SESSIONBOXER_DESKTOP: off runs no display (the daemon starts none). */
  enabled: boolean;
  /** SESSIONBOXER_DISPLAY, ":1" by default: a box's /tmp is its own, so :1 is always free. */
  display: string;
  /** SESSIONBOXER_SCREEN, "1024x768" by default (the spec's size, and the guests'). */
  screen: ScreenSize;
  /** SESSIONBOXER_MOUSE_GLIDE=0 makes the pointer jump. */
  glide: boolean;
  /** SESSIONBOXER_GUEST_OS: linux, or the Windows/macOS guest a remote-desktop stream shows. */
  guestOs: GuestOs;
  /** SESSIONBOXER_TYPE_DELAY_MS, else 12 ms, or 40 ms for a Windows or macOS guest. */
  typeDelayMs: number;
  /**
   * SESSIONBOXER_NARRATION (always, ask, never; ask by default) and
   * SESSIONBOXER_NARRATION_ASK_SECONDS (5): the control plane sets them from Settings.
   */
  narration: { mode: 'always' | 'ask' | 'never'; askAboveSeconds: number };
  /**
   * SESSIONBOXER_KOKORO_MODEL (a model folder in the image; unset: espeak-ng narrates) and
   * SESSIONBOXER_KOKORO_VOICE (af_heart): the control plane passes on its own values.
   */
  tts: TtsSettings;
}

export type GuestOs = 'linux' | 'windows' | 'macos';

export const SCREEN_DEFAULT = { width: 1024, height: 768 };
export const SCREEN_MIN = { width: 320, height: 200 };
export const SCREEN_MAX = { width: 7680, height: 4320 };
/** RDP and VNC drop keys at xdotool's default pace: the spec's 40 ms for remote guests. */
export const TYPE_DELAY_MS = { linux: 12, remote: 40 };
const TYPE_DELAY_MAX_MS = 1_000;

export class DesktopConfigError extends Error {}

function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

/** The value `map` gives the variable (case ignored), `fallback` when unset. */
function choice<T>(
  env: NodeJS.ProcessEnv,
  name: string,
  map: Record<string, T>,
  fallback: T,
  allowed = Object.keys(map).join(', '),
): T {
  const raw = setting(env, name);
  if (raw === undefined) return fallback;
  const value = map[raw.toLowerCase()];
  if (value === undefined) {
    throw new DesktopConfigError(`${name} must be ${allowed}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

const SWITCH = { on: true, off: false, '1': true, '0': false, true: true, false: false };
const SWITCH_TEXT = 'on or off (or 1/0, true/false)';

export function parseScreen(raw: string): ScreenSize {
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(raw);
  const width = Number(m?.[1]);
  const height = Number(m?.[2]);
  const fits = (v: number, axis: 'width' | 'height') =>
    v >= SCREEN_MIN[axis] && v <= SCREEN_MAX[axis];
  if (!m || !fits(width, 'width') || !fits(height, 'height')) {
    throw new DesktopConfigError(
      `SESSIONBOXER_SCREEN must be WIDTHxHEIGHT from ${SCREEN_MIN.width}x${SCREEN_MIN.height} ` +
        `to ${SCREEN_MAX.width}x${SCREEN_MAX.height}, got ${JSON.stringify(raw)}`,
    );
  }
  return { width, height };
}

export function parseDisplay(raw: string): string {
  const m = /^:?(\d{1,4})$/.exec(raw);
  if (!m) {
    throw new DesktopConfigError(
      `SESSIONBOXER_DISPLAY must be :N (":1"), got ${JSON.stringify(raw)}`,
    );
  }
  return `:${Number(m[1])}`;
}

function typeDelay(env: NodeJS.ProcessEnv, guestOs: GuestOs): number {
  const raw = setting(env, 'SESSIONBOXER_TYPE_DELAY_MS');
  if (raw === undefined) return guestOs === 'linux' ? TYPE_DELAY_MS.linux : TYPE_DELAY_MS.remote;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > TYPE_DELAY_MAX_MS) {
    throw new DesktopConfigError(
      `SESSIONBOXER_TYPE_DELAY_MS must be an integer from 0 to ${TYPE_DELAY_MAX_MS}, got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

export function loadDesktopConfig(env: NodeJS.ProcessEnv = process.env): DesktopConfig {
  const guestOs = choice<GuestOs>(
    env,
    'SESSIONBOXER_GUEST_OS',
    { linux: 'linux', windows: 'windows', macos: 'macos' },
    'linux',
    'linux, windows or macos',
  );
  const screen = setting(env, 'SESSIONBOXER_SCREEN');
  const display = setting(env, 'SESSIONBOXER_DISPLAY');
  return {
    enabled: choice(env, 'SESSIONBOXER_DESKTOP', SWITCH, true, SWITCH_TEXT),
    display: display === undefined ? ':1' : parseDisplay(display),
    screen: screen === undefined ? { ...SCREEN_DEFAULT } : parseScreen(screen),
    glide: choice(env, 'SESSIONBOXER_MOUSE_GLIDE', SWITCH, true, SWITCH_TEXT),
    guestOs,
    typeDelayMs: typeDelay(env, guestOs),
    narration: {
      mode: choice(env, 'SESSIONBOXER_NARRATION', NARRATION, 'ask', 'always, ask or never'),
      askAboveSeconds: askAbove(env),
    },
    tts: ttsSettings(env),
  };
}

/** Kokoro's voices: a language letter (a American, b British English), a gender, a name. */
const KOKORO_VOICE = /^[ab][fm]_[a-z]{2,20}$/;

function ttsSettings(env: NodeJS.ProcessEnv): TtsSettings {
  const voice = setting(env, 'SESSIONBOXER_KOKORO_VOICE') ?? 'af_heart';
  if (!KOKORO_VOICE.test(voice)) {
    throw new DesktopConfigError(
      `SESSIONBOXER_KOKORO_VOICE must be a Kokoro voice such as af_heart or bm_george, got ${JSON.stringify(voice)}`,
    );
  }
  // The model's path is checked when narration needs it: a missing one falls back, saying why.
  return { kokoroModel: setting(env, 'SESSIONBOXER_KOKORO_MODEL') ?? null, kokoroVoice: voice };
}

const NARRATION = { always: 'always', ask: 'ask', never: 'never' } as const;

function askAbove(env: NodeJS.ProcessEnv): number {
  const raw = setting(env, 'SESSIONBOXER_NARRATION_ASK_SECONDS');
  if (raw === undefined) return 5;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 3600) {
    throw new DesktopConfigError(
      `SESSIONBOXER_NARRATION_ASK_SECONDS must be a whole number of seconds from 0 to 3600, got ${JSON.stringify(raw)}`,
    );
  }
  return n;
}

/** The variables the desktop MCP server reads, as the daemon writes them into .mcp.json. */
export function desktopServerEnv(config: DesktopConfig): Record<string, string> {
  const { width, height } = config.screen;
  return {
    DISPLAY: config.display,
    SESSIONBOXER_SCREEN: `${width}x${height}`,
    SESSIONBOXER_MOUSE_GLIDE: config.glide ? '1' : '0',
    SESSIONBOXER_GUEST_OS: config.guestOs,
    SESSIONBOXER_TYPE_DELAY_MS: String(config.typeDelayMs),
    SESSIONBOXER_NARRATION: config.narration.mode,
    SESSIONBOXER_NARRATION_ASK_SECONDS: String(config.narration.askAboveSeconds),
    // The voice means something only with a model: without one, espeak-ng narrates.
    ...(config.tts.kokoroModel === null
      ? {}
      : {
          SESSIONBOXER_KOKORO_MODEL: config.tts.kokoroModel,
          SESSIONBOXER_KOKORO_VOICE: config.tts.kokoroVoice,
        }),
  };
}
