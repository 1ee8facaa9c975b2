import { operationsConfig } from './operations-config';

describe('operationsConfig', () => {
  it('defaults to info, JSON off a TTY and pretty on one, and no metrics token', () => {
    expect(operationsConfig({}, false)).toEqual({
      logLevel: 'info',
      logFormat: 'json',
      metricsToken: null,
      instance: 'default',
      internalUrl: null,
    });
    const named = {
      SESSIONBOXER_INSTANCE: 'cp-b',
      SESSIONBOXER_INTERNAL_URL: 'http://10.0.0.2:8080/',
    };
    expect(operationsConfig(named, false)).toMatchObject({
      instance: 'cp-b',
      internalUrl: 'http://10.0.0.2:8080',
    });
    expect(operationsConfig({}, true).logFormat).toBe('pretty');
    expect(operationsConfig({ SESSIONBOXER_LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
  });

  it.each([
    [{ SESSIONBOXER_LOG_LEVEL: 'loud' }, /SESSIONBOXER_LOG_LEVEL must be one of fatal/],
    [{ SESSIONBOXER_LOG_FORMAT: 'xml' }, /SESSIONBOXER_LOG_FORMAT must be json or pretty/],
    [{ SESSIONBOXER_METRICS_TOKEN: 'short' }, /at least 16 characters/],
    [{ SESSIONBOXER_INSTANCE: 'CP 1' }, /SESSIONBOXER_INSTANCE must be 1 to 40 lower-case/],
    [{ SESSIONBOXER_INTERNAL_URL: 'http://a/b' }, /SESSIONBOXER_INTERNAL_URL must be http/],
  ])('refuses %j naming the variable', (env, why) => {
    expect(() => operationsConfig(env, false)).toThrow(why);
  });
});
