import { controlPlaneTools, e2eTools } from '@sessionboxer/mcp-adapters';
import { CallHandlers } from './call-handlers';

describe('CallHandlers, the boot check', () => {
  it('refuses to start while a tool has no handler, naming each', () => {
    const handlers = new CallHandlers();
    expect(() => handlers.onApplicationBootstrap()).toThrow(
      `no handler for the sessionboxer tools ${controlPlaneTools.map((t) => t.name).join(', ')}`,
    );
    for (const tool of controlPlaneTools) handlers.sessionboxer.register(tool, () => 1, 'test');
    expect(() => handlers.onApplicationBootstrap()).toThrow(
      `no handler for the Auto QA tools ${e2eTools.map((t) => t.name).join(', ')}`,
    );
    for (const tool of e2eTools) handlers.e2e.register(tool, () => 1, 'test');
    expect(() => handlers.onApplicationBootstrap()).not.toThrow();
  });
});
