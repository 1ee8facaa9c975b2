/**
 * No Docker engine runs here, so the image is checked as text against the code it must
 * serve: every host program the box driver lists (BOX_HOST_COMMANDS) must come from a Debian
 * package the Dockerfile's runtime stage installs, the image must ship what boxes and
 * operators run, and docker-compose.yml must grant what bubblewrap needs and no more.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BOX_HOST_COMMANDS } from '../../apps/control-plane/src/boxes/driver';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The one table from a program to the Debian (bookworm) package that installs it. */
const COMMAND_PACKAGE: Record<string, string> = {
  bwrap: 'bubblewrap',
  nsenter: 'util-linux',
  setpriv: 'util-linux',
  unshare: 'util-linux',
  Xvfb: 'xvfb',
  xdotool: 'xdotool',
  xwd: 'x11-apps',
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffmpeg',
  'espeak-ng': 'espeak-ng',
  chromium: 'chromium',
  xterm: 'xterm',
  git: 'git',
};

/** The runtime stage (after the last FROM), continuation lines joined, comments dropped. */
function runtimeStage(dockerfile: string): string[] {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const from = lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  return lines.slice(from);
}

function aptInstalled(stage: string[]): Set<string> {
  const packages = new Set<string>();
  for (const line of stage.filter((l) => /^RUN\s/.test(l))) {
    for (const part of line.split('&&')) {
      const m = /apt-get\s+install\s+(.*)$/.exec(part.trim());
      m?.[1]
        .split(/\s+/)
        .filter((w) => w && !w.startsWith('-'))
        .forEach((p) => packages.add(p));
    }
  }
  return packages;
}

/** The package dpkg says installed `command` on this machine (merged /usr looked up both ways). */
function dpkgOwner(command: string): string {
  const found = execFileSync('sh', ['-c', 'command -v "$1"', 'sh', command], { encoding: 'utf8' });
  const real = fs.realpathSync(found.trim());
  const candidates = [
    real,
    real.replace(/^\/usr\//, '/'),
    real.replace(/^\/(s?bin)\//, '/usr/$1/'),
  ];
  for (const file of candidates) {
    try {
      return execFileSync('dpkg', ['-S', file], { encoding: 'utf8' }).split(':')[0].trim();
    } catch {
      // not under this name; the next
    }
  }
  throw new Error(`dpkg knows no package for ${command} (${real})`);
}

const stage = runtimeStage(read('Dockerfile'));

describe('the image', () => {
  it('maps every program the box driver needs to a Debian package', () => {
    const unmapped = BOX_HOST_COMMANDS.map((c) => c.command).filter((c) => !COMMAND_PACKAGE[c]);
    expect(unmapped).toEqual([]);
  });

  it('installs, in its runtime stage, the package of every program the box driver needs', () => {
    const installed = aptInstalled(stage);
    const missing = BOX_HOST_COMMANDS.filter((c) => !installed.has(COMMAND_PACKAGE[c.command]));
    expect(missing.map((c) => `${c.command} (${COMMAND_PACKAGE[c.command]}) for ${c.for}`)).toEqual(
      [],
    );
  });

  it('names the package dpkg says each program comes from (on this Debian machine)', () => {
    const wrong = BOX_HOST_COMMANDS.map((c) => c.command)
      .map((c) => ({ command: c, table: COMMAND_PACKAGE[c], dpkg: dpkgOwner(c) }))
      .filter((r) => r.table !== r.dpkg);
    expect(wrong).toEqual([]);
  });

  it('ships the guide, the built entry points and the agent CLIs, and runs the control plane', () => {
    const copies = stage.filter((l) => /^COPY\s/.test(l));
    expect(copies).toEqual(
      expect.arrayContaining([
        'COPY --from=build /app/node_modules ./node_modules',
        'COPY --from=build /app/dist ./dist',
        'COPY docs/GUIDE.md ./docs/GUIDE.md',
      ]),
    );
    const cmd = stage.find((l) => /^CMD\s/.test(l));
    expect(cmd).toBe('CMD ["node", "dist/apps/control-plane/src/main.js"]');
    // What `npm run build` puts in dist/ (built by the test setup): the image copies it whole.
    for (const entry of [
      'dist/apps/control-plane/src/main.js',
      'dist/apps/box-agent/src/main.js',
      'dist/tools/cli/main.js',
      'docs/GUIDE.md',
    ]) {
      expect(fs.existsSync(path.join(root, entry)) ? entry : `${entry} missing`).toBe(entry);
    }
    // `npm prune --omit=dev` keeps dependencies and optional ones: the agents' CLIs are there
    // (the box's agent PATH: node_modules/.bin, and OpenCode's platform package's bin).
    const pkg = JSON.parse(read('package.json')) as Record<string, Record<string, string>>;
    expect(Object.keys(pkg.dependencies)).toContain('@anthropic-ai/claude-code');
    expect(Object.keys(pkg.optionalDependencies)).toContain('opencode-linux-x64');
    for (const cli of [
      'node_modules/.bin/claude',
      'node_modules/opencode-linux-x64/bin/opencode',
    ]) {
      expect(fs.existsSync(path.join(root, cli)) ? cli : `${cli} missing`).toBe(cli);
    }
  });

  it('starts through an entrypoint that exists, parses and runs its command', () => {
    const entry = stage.find((l) => /^ENTRYPOINT\s/.test(l));
    expect(entry).toBe('ENTRYPOINT ["/usr/local/bin/sessionboxer-entrypoint"]');
    expect(stage).toContain(
      'COPY tools/docker/entrypoint.sh /usr/local/bin/sessionboxer-entrypoint',
    );
    const script = path.join(root, 'tools/docker/entrypoint.sh');
    execFileSync('sh', ['-n', script]);
    expect(read('tools/docker/entrypoint.sh')).toMatch(/\nexec "\$@"\n$/);
  });
});

describe('docker-compose.yml', () => {
  const compose = read('docker-compose.yml');
  const service = compose.slice(
    compose.indexOf('\n  control-plane:'),
    compose.indexOf('\nvolumes:'),
  );
  const entries = (key: string): string[] => {
    const block = new RegExp(`\\n    ${key}:\\n((?:      .*\\n|\\s*#.*\\n)+)`).exec(service);
    return (block?.[1] ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('- '))
      .map((l) => l.slice(2));
  };

  it('grants the control plane what bubblewrap and the box driver need, and nothing broader', () => {
    expect(entries('cap_add')).toEqual(['SYS_ADMIN']);
    expect(entries('security_opt').sort()).toEqual(
      ['apparmor=unconfined', 'seccomp=unconfined', 'systempaths=unconfined'].sort(),
    );
    expect(service).toContain('\n    cgroup: private\n');
    expect(service).toContain('\n    init: true\n');
    expect(service).toMatch(/SESSIONBOXER_BOX_ISOLATION: 'bubblewrap'/);
    for (const broad of [
      'privileged:',
      'devices:',
      'pid: host',
      'network_mode: host',
      'userns_mode',
    ]) {
      expect(service.includes(broad) ? broad : null).toBeNull();
    }
  });
});
