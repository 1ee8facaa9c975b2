import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodePng } from '../../box-agent/src/desktop/test/png-decode';
import type { RunningApp } from './harness';
import { makeKey, runCli, startSandboxApp } from './sandbox-kit';

/** `sessionboxer sandbox desktop|open-url|screenshot|input|a11y|a11y-action` against a running control plane. */
let api: RunningApp;
let key: string;

const cli = (...args: string[]) => runCli(api.url, key, ...args);

beforeAll(async () => {
  api = await startSandboxApp();
  key = (await makeKey(api)).key;
});
afterAll(async () => {
  await cli('sandbox', 'destroy', 'cli-desk');
  await api.close();
});

it('starts the desktop, opens a URL, moves and reads the pointer, writes a screenshot, stops', async () => {
  expect((await cli('sandbox', 'create', '--name', 'cli-desk')).code).toBe(0);
  const refused = await cli('sandbox', 'screenshot', 'cli-desk');
  expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('no_desktop')]);
  const started = await cli('sandbox', 'desktop', 'cli-desk', '--resolution', '1024x768', '--json');
  expect(JSON.parse(started.stdout)).toMatchObject({ running: true, size: '1024x768' });
  expect(JSON.parse((await cli('sandbox', 'open-url', 'cli-desk', 'about:blank')).stdout)).toEqual({
    done: 'open',
  });
  const moved = await cli('sandbox', 'input', 'cli-desk', 'move', '--x', '30', '--y', '40');
  expect(JSON.parse(moved.stdout)).toEqual({ done: 'move' });
  const pressed = await cli('sandbox', 'input', 'cli-desk', 'key', '--keys', 'Escape', '--json');
  expect(JSON.parse(pressed.stdout)).toEqual({ done: 'key' });
  const cursor = await cli('sandbox', 'input', 'cli-desk', 'cursor', '--json');
  expect(JSON.parse(cursor.stdout)).toEqual({ x: 30, y: 40 });
  const unused = await cli('sandbox', 'input', 'cli-desk', 'cursor', '--text', 'a');
  expect([unused.code, unused.stderr]).toEqual([1, expect.stringContaining('text')]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shot-')), 'part.png');
  const part = await cli(
    'sandbox',
    'screenshot',
    'cli-desk',
    '--region',
    '0,0,512,192',
    '--out',
    file,
  );
  expect(part.stdout.trim()).toBe(`1024x384 PNG to ${file}`);
  expect([decodePng(fs.readFileSync(file)).width, decodePng(fs.readFileSync(file)).height]).toEqual(
    [1024, 384],
  );
  // sandbox a11y (div sandbox a11y): one node a line; a11y-action presses the button by ref.
  const page =
    "<button onclick=\"document.title='pressed'; this.textContent='Pressed'\">Press me</button>";
  expect((await cli('sandbox', 'write', 'cli-desk', '/root/b.html', '--content', page)).code).toBe(
    0,
  );
  await cli('sandbox', 'open-url', 'cli-desk', 'file:///root/b.html');
  let tree = '';
  for (let i = 0; i < 50 && !tree.includes('"Press me"'); i++) {
    tree = (await cli('sandbox', 'a11y', 'cli-desk', '--app', 'chromium')).stdout;
    if (!tree.includes('"Press me"')) await new Promise((r) => setTimeout(r, 200));
  }
  const button = /^ *(n\d+) button "Press me".* @\d+,\d+ \d+x\d+ \(.*press.*\)$/m.exec(tree);
  expect(button).not.toBeNull();
  const ref = button![1];
  const pressed2 = await cli('sandbox', 'a11y-action', 'cli-desk', ref, 'press');
  expect([pressed2.code, pressed2.stdout.trim()]).toEqual([0, expect.stringMatching(`^${ref}: `)]);
  let after = '';
  for (let i = 0; i < 50 && !after.includes('"Pressed"'); i++) {
    after = (await cli('sandbox', 'a11y', 'cli-desk', '--app', 'chromium', '--json')).stdout;
    if (!after.includes('"Pressed"')) await new Promise((r) => setTimeout(r, 200));
  }
  expect(after).toContain('"Pressed"');
  const stale = await cli('sandbox', 'a11y-action', 'cli-desk', ref, 'press');
  expect([stale.code, stale.stderr]).toEqual([1, expect.stringContaining('stale_ref')]);
  const status = await cli('sandbox', 'desktop', 'cli-desk', 'stop', '--json');
  expect(JSON.parse(status.stdout)).toEqual({ running: false });
}, 300_000);
