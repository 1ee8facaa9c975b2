import { operationsConfig } from './operations-config';

describe('operationsConfig', () => {
  it('defaults to info, JSON off a TTY and pretty on one, and no metrics token', () => {
    expect(operationsConfig({}, false)).toEqual({
      logLevel: 'info',
      logFormat: 'json',
      metricsToken: null,
    });
    expect(operationsConfig({}, true).logFormat).toBe('pretty');
    expect(operationsConfig({ SESSIONBOXER_LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
  });

  it.each([
    [{ SESSIONBOXER_LOG_LEVEL: 'loud' }, /SESSIONBOXER_LOG_LEVEL must be one of fatal/],
    [{ SESSIONBOXER_LOG_FORMAT: 'xml' }, /SESSIONBOXER_LOG_FORMAT must be json or pretty/],
    [{ SESSIONBOXER_METRICS_TOKEN: 'short' }, /at least 16 characters/],
  ])('refuses %j naming the variable', (env, why) => {
    expect(() => operationsConfig(env, false)).toThrow(why);
  });
});
