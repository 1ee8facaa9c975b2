import { boxTtsEnv, loadConfig } from './config';

describe("the narration engine's settings, passed to every box", () => {
  it('passes nothing without a Kokoro model, so boxes narrate with espeak-ng', () => {
    expect(boxTtsEnv(loadConfig({}))).toEqual({});
  });

  it("passes Kokoro's model folder and voice on as they are (the box checks them)", () => {
    const config = loadConfig({
      SESSIONBOXER_KOKORO_MODEL: ' /usr/share/kokoro/Kokoro-82M-v1.0-ONNX ',
      SESSIONBOXER_KOKORO_VOICE: 'bf_emma',
    });
    expect(boxTtsEnv(config)).toEqual({
      SESSIONBOXER_KOKORO_MODEL: '/usr/share/kokoro/Kokoro-82M-v1.0-ONNX',
      SESSIONBOXER_KOKORO_VOICE: 'bf_emma',
    });
  });
});
