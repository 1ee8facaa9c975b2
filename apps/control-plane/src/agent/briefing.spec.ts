import { briefing } from './briefing';

describe('the briefing that opens a session’s first prompt', () => {
  const linux = briefing({ title: 'Backend tests', environment: 'docker-linux' });

  it('opens with the session’s name and environment', () => {
    expect(linux.split('\n')[0]).toMatch(
      /^You are the agent of the Sessionboxer session “Backend tests”, environment Docker · Linux\./,
    );
  });

  it('names both MCP servers and says how to use them well', () => {
    expect(linux).toMatch(/`desktop` sees and drives this box's screen/);
    expect(linux).toMatch(/`sessionboxer` tells you about this session/);
    expect(linux).toMatch(/Take a screenshot before you act on the desktop and after any action/);
    expect(linux).toMatch(/from the sessionboxer server's `docs` tool, not from memory/);
    expect(linux).toMatch(/mention the recording's path/);
  });

  it('tells a Windows agent to use the Start menu and a macOS agent Spotlight, and Linux neither', () => {
    const windows = briefing({ title: 'W', environment: 'qemu-windows' });
    const mac = briefing({ title: 'M', environment: 'qemu-macos' });
    expect(windows).toMatch(/environment QEMU · Windows/);
    expect(windows).toMatch(/open programs from the Start menu/);
    expect(mac).toMatch(/open programs with Spotlight/);
    expect(linux).not.toMatch(/Start menu|Spotlight/);
  });
});
