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

describe('the egress proxy address exceptions', () => {
  it('reads a comma-separated list of IP addresses, none by default', () => {
    expect(loadConfig({}).egressAllowAddresses).toEqual([]);
    const config = loadConfig({ SESSIONBOXER_EGRESS_ALLOW_ADDRESSES: ' 127.0.0.2, ::1 ,' });
    expect(config.egressAllowAddresses).toEqual(['127.0.0.2', '::1']);
  });

  it('refuses a name or a range, naming it', () => {
    expect(() => loadConfig({ SESSIONBOXER_EGRESS_ALLOW_ADDRESSES: '10.0.0.0/8' })).toThrow(
      /SESSIONBOXER_EGRESS_ALLOW_ADDRESSES must list IP addresses, got "10.0.0.0\/8"/,
    );
  });
});
