import { ConfigError, loadConfig } from '../config';
import { desktopServerEnv, loadDesktopConfig, parseDisplay, parseScreen } from './desktop-config';
import { restartDelayMs, xvfbArgs } from './display';

describe('desktop config', () => {
  it('defaults to a 1024x768 display :1, gliding, typing 12 ms apart', () => {
    expect(loadDesktopConfig({})).toEqual({
      enabled: true,
      display: ':1',
      screen: { width: 1024, height: 768 },
      glide: true,
      guestOs: 'linux',
      typeDelayMs: 12,
      narration: { mode: 'ask', askAboveSeconds: 5 },
      tts: { kokoroModel: null, kokoroVoice: 'af_heart' },
    });
  });

  it("takes Kokoro's model and voice when the operator sets them, and hands them on", () => {
    const config = loadDesktopConfig({
      SESSIONBOXER_KOKORO_MODEL: '/usr/share/kokoro/Kokoro-82M-v1.0-ONNX',
      SESSIONBOXER_KOKORO_VOICE: 'bm_george',
    });
    expect(config.tts).toEqual({
      kokoroModel: '/usr/share/kokoro/Kokoro-82M-v1.0-ONNX',
      kokoroVoice: 'bm_george',
    });
    expect(desktopServerEnv(config)).toMatchObject({
      SESSIONBOXER_KOKORO_MODEL: '/usr/share/kokoro/Kokoro-82M-v1.0-ONNX',
      SESSIONBOXER_KOKORO_VOICE: 'bm_george',
    });
    expect(() => loadDesktopConfig({ SESSIONBOXER_KOKORO_VOICE: 'en-us' })).toThrow(
      /SESSIONBOXER_KOKORO_VOICE must be a Kokoro voice/,
    );
  });

  it('takes the narration setting the control plane passes, and hands it on to the server', () => {
    const config = loadDesktopConfig({
      SESSIONBOXER_NARRATION: 'Never',
      SESSIONBOXER_NARRATION_ASK_SECONDS: '30',
    });
    expect(config.narration).toEqual({ mode: 'never', askAboveSeconds: 30 });
    expect(desktopServerEnv(config)).toMatchObject({
      SESSIONBOXER_NARRATION: 'never',
      SESSIONBOXER_NARRATION_ASK_SECONDS: '30',
    });
    expect(() => loadDesktopConfig({ SESSIONBOXER_NARRATION: 'sometimes' })).toThrow(
      /SESSIONBOXER_NARRATION must be always, ask or never/,
    );
    expect(() => loadDesktopConfig({ SESSIONBOXER_NARRATION_ASK_SECONDS: '-1' })).toThrow(
      /SESSIONBOXER_NARRATION_ASK_SECONDS/,
    );
  });

  it('types 40 ms apart for a Windows or macOS guest unless told otherwise', () => {
    expect(loadDesktopConfig({ SESSIONBOXER_GUEST_OS: 'windows' }).typeDelayMs).toBe(40);
    expect(loadDesktopConfig({ SESSIONBOXER_GUEST_OS: 'macOS' }).typeDelayMs).toBe(40);
    const env = { SESSIONBOXER_GUEST_OS: 'macos', SESSIONBOXER_TYPE_DELAY_MS: '25' };
    expect(loadDesktopConfig(env).typeDelayMs).toBe(25);
  });

  it('reads the switches and the sizes', () => {
    const env = {
      SESSIONBOXER_DESKTOP: 'off',
      SESSIONBOXER_MOUSE_GLIDE: '0',
      SESSIONBOXER_SCREEN: '1280x800',
      SESSIONBOXER_DISPLAY: '7',
    };
    expect(loadDesktopConfig(env)).toMatchObject({
      enabled: false,
      glide: false,
      screen: { width: 1280, height: 800 },
      display: ':7',
    });
    expect(parseDisplay(':42')).toBe(':42');
  });

  it('names the variable that is wrong', () => {
    expect(() => parseScreen('1024*768')).toThrow(/SESSIONBOXER_SCREEN must be WIDTHxHEIGHT/);
    expect(() => parseScreen('100x100')).toThrow(/from 320x200 to 7680x4320/);
    expect(() => parseScreen('99999x768')).toThrow(/SESSIONBOXER_SCREEN/);
    expect(() => parseDisplay('localhost:1')).toThrow(/SESSIONBOXER_DISPLAY must be :N/);
    expect(() => loadDesktopConfig({ SESSIONBOXER_DESKTOP: 'maybe' })).toThrow(
      /SESSIONBOXER_DESKTOP must be on or off/,
    );
    expect(() => loadDesktopConfig({ SESSIONBOXER_GUEST_OS: 'beos' })).toThrow(/GUEST_OS/);
    expect(() => loadDesktopConfig({ SESSIONBOXER_TYPE_DELAY_MS: '-1' })).toThrow(/TYPE_DELAY_MS/);
  });

  it("is part of the daemon's config, whose error the daemon prints and exits on", () => {
    expect(loadConfig({}).desktop.display).toBe(':1');
    expect(() => loadConfig({ SESSIONBOXER_SCREEN: 'big' })).toThrow(ConfigError);
  });

  it('hands the server its settings through .mcp.json', () => {
    const config = loadDesktopConfig({
      SESSIONBOXER_SCREEN: '800x600',
      SESSIONBOXER_MOUSE_GLIDE: 'off',
    });
    expect(desktopServerEnv(config)).toEqual({
      DISPLAY: ':1',
      SESSIONBOXER_SCREEN: '800x600',
      SESSIONBOXER_MOUSE_GLIDE: '0',
      SESSIONBOXER_GUEST_OS: 'linux',
      SESSIONBOXER_TYPE_DELAY_MS: '12',
      SESSIONBOXER_NARRATION: 'ask',
      SESSIONBOXER_NARRATION_ASK_SECONDS: '5',
    });
    const kokoro = loadDesktopConfig({ SESSIONBOXER_KOKORO_MODEL: '/opt/kokoro' });
    expect(desktopServerEnv(kokoro)).toMatchObject({
      SESSIONBOXER_KOKORO_MODEL: '/opt/kokoro',
      SESSIONBOXER_KOKORO_VOICE: 'af_heart',
    });
  });
});

describe('the display process', () => {
  it('starts Xvfb as an argv, never listening on TCP, never resetting', () => {
    expect(xvfbArgs(':1', { width: 1024, height: 768 })).toEqual([
      ':1', '-screen', '0', '1024x768x24', '-nolisten', 'tcp', '-noreset', '-displayfd', '3',
    ]); // prettier-ignore
  });

  it('waits longer after each failed start, up to 30 s', () => {
    expect([0, 1, 2, 3].map(restartDelayMs)).toEqual([250, 500, 1000, 2000]);
    expect(restartDelayMs(100)).toBe(30_000);
  });
});
