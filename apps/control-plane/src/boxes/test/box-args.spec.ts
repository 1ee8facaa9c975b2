import { BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { boxEnv, pathInside } from '../box-spec';
import { BOX_MOUNTS, boxArgs, execArgv } from '../bubblewrap';

/** The pure parts: bwrap's argv, the environment, path checks. */
describe('bubblewrap arguments', () => {
  const plan = {
    sessionId: '0123abcd-0000-4000-8000-000000000000',
    workspaceDir: '/data/boxes/x/workspace',
    gatewaySocketDir: '/data/boxes/x/run',
    sharedMounts: ['--ro-bind', '/usr', '/usr'],
    env: { A: '1; rm -rf /' },
    command: ['/usr/bin/node', 'main.js'],
  };

  it('drops every capability and unshares pid, net, ipc and uts', () => {
    const args = boxArgs(plan);
    for (const flag of ['--unshare-user', '--unshare-pid', '--unshare-net', '--unshare-ipc']) {
      expect(args).toContain(flag);
    }
    expect(args.join(' ')).toContain('--cap-drop ALL');
    expect(args.join(' ')).toContain('--hostname box-0123abcd');
    expect(args).toContain('--die-with-parent');
    expect(args).toContain('--clearenv');
  });

  it('mounts only the workspace and the socket folder read-write, and keeps argv as argv', () => {
    const args = boxArgs(plan);
    const rw = args.flatMap((a, i) => (a === '--bind' ? [`${args[i + 1]}:${args[i + 2]}`] : []));
    expect(rw).toEqual([
      '/data/boxes/x/workspace:/workspace',
      '/data/boxes/x/run:/run/sessionboxer',
    ]);
    expect(args.slice(-3)).toEqual(['--', '/usr/bin/node', 'main.js']);
    expect(args.join('\0')).toContain('--setenv\0A\x001; rm -rf /');
  });

  it('agrees with the paths the daemon and MCP servers use', () => {
    expect(`${BOX_MOUNTS.gatewayDir}/gateway.sock`).toBe(BOX_PATHS.gatewaySocket);
    expect(BOX_PATHS.guide.startsWith(`${BOX_MOUNTS.project}/`)).toBe(true);
    expect(BOX_MOUNTS.workspace).toBe(BOX_PATHS.workspace);
  });

  it('exec passes the environment as arguments after joining, never to nsenter itself', () => {
    const tools = { bwrap: '/b', nsenter: '/n', setpriv: '/s' };
    const argv = execArgv(tools, 42, ['/bin/echo', '$HOME'], '/workspace', { LD_PRELOAD: 'x' });
    expect(argv.slice(0, 2)).toEqual(['/n', '--target=42']);
    expect(argv.slice(-5)).toEqual(['/workspace', '1', 'LD_PRELOAD=x', '/bin/echo', '$HOME']);
  });
});

describe('box environment', () => {
  it('puts the session id last so a spec cannot claim another session', () => {
    const paths = { workspace: '/workspace', gatewaySocket: '/run/sessionboxer/gateway.sock' };
    const env = boxEnv('id-1', { SESSIONBOXER_SESSION_ID: 'id-2', PATH: '/opt/bin' }, paths);
    expect(env.SESSIONBOXER_SESSION_ID).toBe('id-1');
    expect(env.PATH).toBe('/opt/bin');
    expect(env.HOME).toBe('/workspace');
  });
});

describe('pathInside', () => {
  it('accepts only absolute paths strictly inside, written without ".."', () => {
    expect(pathInside('/data', '/data/a/b', 'f')).toBe('/data/a/b');
    expect(pathInside('/data', '/data//a/./b/', 'f')).toBe('/data/a/b');
    for (const bad of [
      '/data',
      '/data/../etc',
      '/data/a/..',
      '/datax/a',
      'data/a',
      '',
      '/data/a\0',
    ]) {
      expect(() => pathInside('/data', bad, 'f')).toThrow(/f:/);
    }
  });
});
