import { BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { boxEnv, pathInside } from '../box-spec';
import { BOX_MOUNTS, STAGE_DIR, boxArgs, execArgv, launchArgv } from '../bubblewrap';

/** The pure parts: bwrap's argv, the environment, path checks. */
describe('bubblewrap arguments', () => {
  const plan = {
    sessionId: '0123abcd-0000-4000-8000-000000000000',
    workspaceDir: '/data/boxes/x/workspace',
    gatewaySocketDir: '/data/boxes/x/run',
    systemMounts: ['--ro-bind', '/usr', '/usr'],
    project: {
      bind: { host: '/repo', box: '/opt/sessionboxer', readOnly: true },
      masks: ['--tmpfs', '/opt/sessionboxer/.git'],
    },
    env: { A: '1; rm -rf /' },
    command: ['/usr/bin/node', 'main.js'],
  };

  const tools = { bwrap: '/b', nsenter: '/n', setpriv: '/s', unshare: '/u' };
  const mapped = { kind: 'mapped', userns: '/proc/9/ns/user' } as const;

  it('drops every capability and unshares pid, net, ipc, uts and cgroup', () => {
    const args = boxArgs(plan, mapped);
    for (const flag of [
      '--unshare-pid',
      '--unshare-net',
      '--unshare-ipc',
      '--unshare-cgroup-try',
    ]) {
      expect(args).toContain(flag);
    }
    // The user namespace is the mapped one made beforehand, or bwrap's own when not root.
    expect(args).not.toContain('--unshare-user');
    expect(boxArgs(plan, { kind: 'own' })).toContain('--unshare-user');
    expect(args.join(' ')).toContain('--cap-drop ALL');
    expect(args.join(' ')).toContain('--hostname box-0123abcd');
    expect(args).not.toContain('--die-with-parent'); // boxes outlive the control plane
    expect(args).toContain('--clearenv');
  });

  it('mounts only the workspace and the socket folder read-write, and keeps argv as argv', () => {
    const args = boxArgs(plan, { kind: 'own' });
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

  it('a mapped box binds its host folders from the stage, staged by the control plane', () => {
    const args = boxArgs(plan, mapped);
    const binds = args.flatMap((a, i) =>
      a === '--bind' || a === '--ro-bind' ? [`${a} ${args[i + 1]}:${args[i + 2]}`] : [],
    );
    expect(binds).toEqual([
      '--ro-bind /usr:/usr',
      `--ro-bind ${STAGE_DIR}/0:/opt/sessionboxer`,
      `--bind ${STAGE_DIR}/1:/workspace`,
      `--bind ${STAGE_DIR}/2:/run/sessionboxer`,
    ]);
    const hosts = ['/repo', '/data/boxes/x/workspace', '/data/boxes/x/run'];
    const argv = launchArgv(tools, hosts, args, mapped);
    expect(argv.slice(0, 4)).toEqual(['/u', '--mount', '--propagation', 'private']);
    const staged = argv.indexOf(STAGE_DIR);
    expect(argv.slice(staged + 1, staged + 5)).toEqual(['3', ...hosts]);
    expect(argv.slice(staged + 5, staged + 9)).toEqual([
      '/n',
      '--user=/proc/9/ns/user',
      '--',
      '/b',
    ]);
    expect(launchArgv(tools, hosts, args, { kind: 'own' })).toEqual(['/b', ...args]);
  });

  it('exec passes the environment as arguments after joining, never to nsenter itself', () => {
    const argv = execArgv(tools, 42, ['/bin/echo', '$HOME'], '/workspace', { LD_PRELOAD: 'x' });
    expect(argv.slice(0, 2)).toEqual(['/n', '--target=42']);
    expect(argv.slice(-5)).toEqual(['/workspace', '1', 'LD_PRELOAD=x', '/bin/echo', '$HOME']);
  });
});

describe('box environment', () => {
  const paths = {
    workspace: '/workspace',
    gatewaySocket: '/run/sessionboxer/gateway.sock',
    edgeSocket: '/run/sessionboxer/edge.sock',
    edgeUrl: 'http://127.0.0.1:7001',
  };
  it('puts the session id last so a spec cannot claim another session', () => {
    const env = boxEnv('id-1', { SESSIONBOXER_SESSION_ID: 'id-2', PATH: '/opt/bin' }, paths);
    expect(env.SESSIONBOXER_SESSION_ID).toBe('id-1');
    expect(env.PATH).toBe('/opt/bin');
    expect(env.HOME).toBe('/workspace');
  });

  it('sends every client through the edge, but not for the box loopback', () => {
    const env = boxEnv('id-1', {}, paths);
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) {
      expect(env[name]).toBe('http://127.0.0.1:7001');
    }
    expect(env.NO_PROXY).toBe('127.0.0.1,localhost,::1');
    expect(env.no_proxy).toBe('127.0.0.1,localhost,::1');
    expect(env.SESSIONBOXER_EDGE_SOCKET).toBe('/run/sessionboxer/edge.sock');
    expect(boxEnv('id-1', {}, { ...paths, edgeUrl: null }).HTTP_PROXY).toBeUndefined();
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
