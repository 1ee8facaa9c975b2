import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { BoxDriver } from '../src/boxes';
import { SandboxDesktop } from '../src/sandboxes/desktop/sandbox-desktop.service';
import {
  AtspiError,
  atspiAction,
  atspiTree,
  DESKTOP_BUS,
  type AtspiApp,
  type AtspiNode,
} from '../src/sandboxes/desktop/atspi';
import type { RunningApp } from './harness';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';

/**
 * The AT-SPI half of the sandbox accessibility tree with real bubblewrap, Xvfb, D-Bus,
 * AT-SPI and GTK: a GTK program started with sandbox_exec while the desktop runs registers
 * on the desktop's bus; its button, label and entry are read with their bounds, the button
 * pressed and the entry's text set, each seen in the tree read again; bad paths, actions
 * not offered and a changed node are refused by name; the desktop's stop ends the buses.
 */
let api: RunningApp;
let client: Client;
let driver: BoxDriver;
let id: string;
const sb = { sandbox: 'atspi' };
const APP = 'probe.py';

/**
 * A window with a label, a button that sets the label to "Hello <entry>", and an entry whose
 * focus the window's title tells.
 */
const PROBE = `import gi
gi.require_version('Gtk', '3.0')
from gi.repository import Gtk
w = Gtk.Window(title='Atspi Probe')
w.move(40, 30)
w.set_default_size(420, 200)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
label = Gtk.Label(label='waiting')
button = Gtk.Button(label='Greet')
entry = Gtk.Entry()
button.connect('clicked', lambda b: label.set_text('Hello ' + entry.get_text()))
entry.connect('notify::is-focus', lambda e, p: w.set_title('Atspi Probe, entry focused' if e.is_focus() else 'Atspi Probe'))
for child in (label, button, entry):
    box.pack_start(child, False, False, 0)
w.add(box)
w.connect('destroy', Gtk.main_quit)
w.show_all()
Gtk.main()
`;

const ok = async (name: string, args: Record<string, unknown>) => {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
  return r.body;
};

function flat(nodes: AtspiNode[]): AtspiNode[] {
  return nodes.flatMap((n) => [n, ...flat(n.children)]);
}

const byRole = (app: AtspiApp, role: string): AtspiNode => {
  const found = flat(app.nodes).filter((n) => n.role === role);
  if (found.length !== 1) throw new Error(`${found.length} nodes of role ${role}`);
  return found[0];
};

async function probe(): Promise<AtspiApp> {
  const apps = await atspiTree(driver, id, { app: APP, depth: 60, includeHidden: false });
  expect(apps.map((a) => a.name)).toEqual([APP]);
  return apps[0];
}

/** Reads the tree until `done` holds of the probe (or the time is up, then once more). */
async function until(done: (app: AtspiApp) => boolean, ms = 20_000): Promise<AtspiApp> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const apps = await atspiTree(driver, id, { depth: 60, includeHidden: false });
    const app = apps.find((a) => a.name === APP);
    if (app && done(app)) return app;
    await new Promise((r) => setTimeout(r, 200));
  }
  return probe();
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AtspiError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('not refused');
}

beforeAll(async () => {
  api = await startSandboxApp();
  client = await mcpClient(api, (await makeKey(api)).key);
  id = (await call(client, 'sandbox_create', { name: 'atspi' })).body.id;
  driver = api.app.get(SandboxDesktop).driver;
  await ok('sandbox_desktop', sb);
}, 90_000);
afterAll(async () => {
  await call(client, 'sandbox_destroy', sb);
  await client.close();
  await api.close();
}, 60_000);

it('sandbox_exec gets the desktop’s bus, and a GTK program started there is listed', async () => {
  const env = await ok('sandbox_exec', { ...sb, command: 'echo "$DBUS_SESSION_BUS_ADDRESS"' });
  expect(env.stdout).toBe(`${DESKTOP_BUS}\n`);
  await ok('sandbox_write_file', { ...sb, path: '/root/probe.py', content: PROBE });
  const started = await ok('sandbox_exec', {
    ...sb,
    command: 'setsid /usr/bin/python3 /root/probe.py </dev/null >/tmp/probe.log 2>&1 &',
  });
  expect(started.exit_code).toBe(0);
  const app = await until((a) => flat(a.nodes).some((n) => n.role === 'push button'));
  const frame = app.nodes[0];
  expect([frame.path, frame.role, frame.name]).toEqual(['0', 'frame', 'Atspi Probe']);
  const button = byRole(app, 'push button');
  const label = byRole(app, 'label');
  expect([button.name, button.actions]).toEqual(['Greet', ['click']]);
  expect(label.name).toBe('waiting');
  expect(button.states).toEqual(expect.arrayContaining(['showing', 'visible', 'enabled']));
  for (const n of [frame, button, label]) {
    const [x, y, w, h] = n.bounds!;
    expect(w > 0 && h > 0 && x >= 0 && y >= 0 && x + w <= 1280 && y + h <= 800).toBe(true);
  }
  // The button sits below the label, inside the window.
  expect(button.bounds![1]).toBeGreaterThan(label.bounds![1]);
  expect(button.bounds![0]).toBeGreaterThanOrEqual(frame.bounds![0]);
  // Chromium has no session bus (CDP reads it): the probe is the only app.
  const all = await atspiTree(driver, id, { depth: 2, includeHidden: true });
  expect(all.map((a) => a.name)).toEqual([APP]);
  // depth 1: the windows alone.
  const shallow = await atspiTree(driver, id, { app: APP, depth: 1, includeHidden: false });
  expect(shallow[0].nodes.map((n) => [n.path, n.children.length])).toEqual([['0', 0]]);
}, 60_000);

it('presses the button and sets the entry’s text, each seen in the tree read again', async () => {
  let app = await probe();
  const button = byRole(app, 'push button');
  const pressed = await atspiAction(driver, id, APP, button.path, 'press', undefined, {
    role: 'push button',
    name: 'Greet',
  });
  expect([pressed.path, pressed.name]).toEqual([button.path, 'Greet']);
  app = await until((a) => byRole(a, 'label').name === 'Hello ');
  expect(byRole(app, 'label').name).toBe('Hello ');

  const entry = byRole(app, 'text');
  expect(entry.states).toContain('editable');
  expect(entry.text).toBe('');
  const set = await atspiAction(driver, id, APP, entry.path, 'set-text', 'Ada Lovelace');
  expect(set.text).toBe('Ada Lovelace');
  const read = await atspiAction(driver, id, APP, entry.path, 'read');
  expect(read.text).toBe('Ada Lovelace');
  await atspiAction(driver, id, APP, button.path, 'click');
  app = await until((a) => byRole(a, 'label').name === 'Hello Ada Lovelace');
  expect(byRole(app, 'label').name).toBe('Hello Ada Lovelace');
  expect(byRole(app, 'text').text).toBe('Ada Lovelace');

  // Focus, seen by the program itself: it names it in its window's title.
  await atspiAction(driver, id, APP, entry.path, 'focus');
  app = await until((a) => a.nodes[0].name === 'Atspi Probe, entry focused');
  expect(app.nodes[0].name).toBe('Atspi Probe, entry focused');
}, 60_000);

it('refuses a gone node, an action not offered, a changed node and bad input by name', async () => {
  const app = await probe();
  const label = byRole(app, 'label');
  const button = byRole(app, 'push button');
  expect(await refusal(atspiAction(driver, id, APP, '0.99', 'read'))).toMatchObject({
    code: 'node_gone',
  });
  expect(await refusal(atspiAction(driver, id, 'nope', '0', 'read'))).toMatchObject({
    code: 'app_gone',
  });
  const press = await refusal(atspiAction(driver, id, APP, label.path, 'press'));
  expect(press.code).toBe('action_not_offered');
  expect(press.message).toMatch(/label/);
  expect(await refusal(atspiAction(driver, id, APP, button.path, 'set-text', 'x'))).toMatchObject({
    code: 'action_not_offered',
  });
  const changed = atspiAction(driver, id, APP, button.path, 'press', undefined, {
    role: 'push button',
    name: 'Other',
  });
  expect(await refusal(changed)).toMatchObject({ code: 'node_changed' });
  expect(await refusal(atspiAction(driver, id, APP, '0;rm', 'read'))).toMatchObject({
    code: 'invalid_argument',
  });
  expect(await refusal(atspiAction(driver, id, APP, label.path, 'set-text'))).toMatchObject({
    code: 'invalid_argument',
  });
  const depth = atspiTree(driver, id, { depth: 0, includeHidden: false });
  expect(await refusal(depth)).toMatchObject({ code: 'invalid_argument' });
  // The label is unchanged by the refused press.
  expect(byRole(await probe(), 'label').name).toBe('Hello Ada Lovelace');
}, 60_000);

it('the desktop’s stop ends its buses; the tree then says no_desktop', async () => {
  expect(await ok('sandbox_desktop', { ...sb, action: 'stop' })).toEqual({ running: false });
  expect(await refusal(atspiTree(driver, id, { depth: 5, includeHidden: false }))).toMatchObject({
    code: 'no_desktop',
  });
  const left = await ok('sandbox_exec', {
    ...sb,
    command: 'sleep 1; pgrep -l -f "[d]bus-daemon|[a]t-spi|[p]robe.py" || true',
  });
  expect(left.stdout).toBe('');
}, 60_000);
