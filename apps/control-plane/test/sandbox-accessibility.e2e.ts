import type { EventStore } from '@sessionboxer/event-store';
import { sandboxStream } from '@sessionboxer/domain/sandbox';
import { EVENT_STORE } from '../src/infrastructure/tokens';
import { a11ySandbox, flat, named } from './a11y-kit';
import { find, until } from './sandbox-desktop-kit';
import { call } from './sandbox-kit';

/**
 * sandbox_accessibility_tree and sandbox_accessibility_action over a real MCP client, with
 * real bubblewrap, Xvfb and Chromium: a page with a field, a button that writes its result
 * into the page, a link, an off-screen button and an iframe with a button of its own. The
 * tree holds the iframe's nodes, bounds match the screenshot, set-text and press act for
 * real (seen through read, the tree and a screenshot), a stale ref is refused, depth and app
 * narrow the tree, and bad parameters are refused by name.
 */
jest.setTimeout(120_000);

const box = a11ySandbox('a11y');
const { sb, ok, tree, act, treeUntil } = box;
const BLUE: [number, number, number] = [0, 0, 255];
const GREEN: [number, number, number] = [0, 255, 0];

const PAGE = `<!doctype html><html><head><title>a11y form</title><style>
body { margin: 0; background: #ffffff; font-size: 18px; }
#name { position: absolute; left: 60px; top: 40px; width: 300px; height: 40px; }
#go { position: absolute; left: 60px; top: 120px; width: 200px; height: 60px;
  background: #0000ff; color: #0000ff; border: 0; }
#result { position: absolute; left: 60px; top: 220px; width: 300px; height: 30px; }
#docs { position: absolute; left: 60px; top: 280px; }
iframe { position: absolute; left: 500px; top: 300px; width: 300px; height: 160px; border: 0; }
#far { position: absolute; left: 60px; top: 3000px; }
</style></head><body>
<input id="name" aria-label="Your name" autocomplete="off">
<button id="go">Send</button>
<input id="result" aria-label="Result" readonly>
<a id="docs" href="#docs">Docs</a>
<iframe src="frame.html" title="panel"></iframe>
<button id="far">Far away</button>
<script>
document.getElementById('go').addEventListener('click', (e) => {
  document.getElementById('result').value = 'Hello ' + document.getElementById('name').value;
  e.target.textContent = 'Sent';
  document.body.style.background = '#00ff00';
});
</script></body></html>`;

const FRAME = `<!doctype html><html><body style="margin:0">
<button id="inner" style="position:absolute;left:20px;top:30px;width:120px;height:40px">Inner</button>
<script>document.getElementById('inner').addEventListener('click', (e) => {
  e.target.textContent = 'Inner pressed'; });</script></body></html>`;

/**
 * The parameter a refusal names: the API's `details.field`, or, for a type or range the
 * MCP SDK's own schema check refuses first (plain text), the zod issue's path or key.
 */
function fieldOf(r: { isError: boolean; body: unknown }): string | undefined {
  if (!r.isError) return undefined;
  if (typeof r.body === 'object' && r.body !== null) {
    const body = r.body as { error?: string; details?: { field?: string } };
    return body.error === 'invalid_argument' ? body.details?.field : undefined;
  }
  const text = String(r.body);
  return (
    / at ([a-z_]+)(?:\.\d+)?$/.exec(text)?.[1] ??
    /Unrecognized key\(s\) in object: '([^']+)'/.exec(text)?.[1]
  );
}

it('refuses bad parameters by name, and answers no_desktop before the desktop starts', async () => {
  for (const [args, field] of [
    [{ depth: 0 }, 'depth'],
    [{ depth: 201 }, 'depth'],
    [{ depth: 2.5 }, 'depth'],
    [{ include_hidden: 'yes' }, 'include_hidden'],
    [{ app: '' }, 'app'],
    [{ colour: 'red' }, 'colour'],
  ] as const) {
    const r = await call(box.client, 'sandbox_accessibility_tree', { ...sb, ...args });
    expect([args, fieldOf(r)]).toEqual([args, field]);
  }
  for (const [args, field] of [
    [{ ref: 'x1', action: 'press' }, 'ref'],
    [{ ref: 'n0', action: 'press' }, 'ref'],
    [{ action: 'press' }, 'ref'],
    [{ ref: 'n1' }, 'action'],
    [{ ref: 'n1', action: 'set-text' }, 'text'],
    [{ ref: 'n1', action: 'press', text: 'x' }, 'text'],
  ] as const) {
    const r = await act(args);
    expect([args, fieldOf(r)]).toEqual([args, field]);
  }
  const t = await call(box.client, 'sandbox_accessibility_tree', sb);
  expect([t.isError, t.body.error]).toEqual([true, 'no_desktop']);
  const a = await act({ ref: 'n1', action: 'read' });
  expect([a.isError, a.body.error]).toEqual([true, 'no_desktop']);
});

it('reads the page and its iframe, on screen only, with bounds in screenshot pixels', async () => {
  await ok('sandbox_desktop', sb);
  await ok('sandbox_write_file', { ...sb, path: '/root/a11y/page.html', content: PAGE });
  await ok('sandbox_write_file', { ...sb, path: '/root/a11y/frame.html', content: FRAME });
  await ok('sandbox_open_url', { ...sb, urls: ['file:///root/a11y/page.html'] });
  const t = await treeUntil((n) => named(n, 'button', 'Inner') !== undefined);
  expect(t.apps).toEqual(['chromium']);
  expect(t.truncated).toBe(false);
  expect(t.nodes[0]).toMatchObject({ role: 'application', name: 'chromium' });
  const doc = named(t.nodes, 'document', 'a11y form');
  expect(doc).toBeDefined();
  const field = named(t.nodes, 'textbox', 'Your name')!;
  expect(field).toMatchObject({ text: '', states: expect.arrayContaining(['focusable']) });
  expect(field.actions).toEqual(expect.arrayContaining(['focus', 'set-text']));
  expect(field.ref).toMatch(/^n\d+$/);
  const button = named(t.nodes, 'button', 'Send')!;
  expect(button.actions).toContain('press');
  expect(named(t.nodes, 'link', 'Docs')?.actions).toContain('press');
  expect(named(t.nodes, 'textbox', 'Result')).toMatchObject({ text: '', actions: ['focus'] });
  // The button's own label is its name, not a node of its own; the off-screen one is left out.
  expect(flat(button.children ?? []).map((n) => n.name)).not.toContain('Send');
  expect(named(t.nodes, 'button', 'Far away')).toBeUndefined();
  // Every node has the spec's fields; refs are unique.
  const all = flat(t.nodes);
  for (const n of all)
    expect(Object.keys(n)).toEqual(
      expect.arrayContaining(['ref', 'role', 'name', 'states', 'bounds', 'actions']),
    );
  expect(new Set(all.map((n) => n.ref)).size).toBe(all.length);

  // The blue button in a screenshot is where its bounds say.
  const s = await until(box.client, box.id, (x) => find(x.png, BLUE).count > 5000);
  const blue = find(s.png, BLUE);
  const [x, y, w, h] = button.bounds!;
  expect([w, h]).toEqual([200, 60]);
  expect(Math.abs(x + w / 2 - blue.x)).toBeLessThanOrEqual(2);
  expect(Math.abs(y + h / 2 - blue.y)).toBeLessThanOrEqual(2);
  // The iframe's button: its frame's place in the page plus its own.
  const inner = named(t.nodes, 'button', 'Inner')!;
  expect([inner.bounds![0] - x, inner.bounds![1] - y]).toEqual([500 + 20 - 60, 300 + 30 - 120]);
});

it('include_hidden, depth and app narrow or widen the tree', async () => {
  const hidden = await tree({ include_hidden: true });
  expect(named(hidden.nodes, 'button', 'Far away')?.states).toContain('offscreen');
  const one = await tree({ depth: 1 });
  expect(one.nodes.map((n) => [n.role, n.name, n.children])).toEqual([
    ['application', 'chromium', undefined],
  ]);
  const two = await tree({ depth: 2 });
  expect(flat(two.nodes).map((n) => n.role)).toEqual(['application', 'document']);
  expect((await tree({ app: 'chromium' })).apps).toEqual(['chromium']);
  const none = await call(box.client, 'sandbox_accessibility_tree', { ...sb, app: 'gedit' });
  expect(none.body).toMatchObject({ error: 'invalid_argument', details: { field: 'app' } });
});

it('set-text and press act on the page: read, the tree and a screenshot show it', async () => {
  const t = await tree();
  const field = named(t.nodes, 'textbox', 'Your name')!;
  const button = named(t.nodes, 'button', 'Send')!;
  const result = named(t.nodes, 'textbox', 'Result')!;
  const link = named(t.nodes, 'link', 'Docs')!;
  expect((await act({ ref: field.ref, action: 'set-text', text: 'Ada' })).body).toEqual({
    ref: field.ref,
    done: 'set-text',
  });
  expect((await act({ ref: field.ref, action: 'read' })).body).toMatchObject({
    ref: field.ref,
    role: 'textbox',
    name: 'Your name',
    text: 'Ada',
  });
  const onLink = await act({ ref: link.ref, action: 'set-text', text: 'no' });
  expect(onLink.body).toMatchObject({ error: 'invalid_argument', details: { field: 'action' } });
  const unknown = await act({ ref: button.ref, action: 'wiggle' });
  expect(unknown.body).toMatchObject({ error: 'invalid_argument', details: { field: 'action' } });
  expect((await act({ ref: button.ref, action: 'press' })).body).toEqual({
    ref: button.ref,
    done: 'press',
  });
  const green = await until(box.client, box.id, (s) => find(s.png, GREEN).count > 100_000);
  expect(find(green.png, GREEN).count).toBeGreaterThan(100_000);
  expect((await act({ ref: result.ref, action: 'read' })).body).toMatchObject({
    role: 'textbox',
    name: 'Result',
    text: 'Hello Ada',
  });
  // The button is now "Sent": its ref names a node that changed.
  const again = await act({ ref: button.ref, action: 'press' });
  expect(again.body).toMatchObject({ error: 'stale_ref', details: { ref: button.ref } });
  expect(again.body.message).toMatch(/sandbox_accessibility_tree again/);

  const fresh = await tree();
  expect(named(fresh.nodes, 'button', 'Sent')).toBeDefined();
  expect(named(fresh.nodes, 'textbox', 'Result')?.text).toBe('Hello Ada');
  // Refs are valid until the tree is read again.
  const old = await act({ ref: field.ref, action: 'read' });
  expect(old.body).toMatchObject({ error: 'stale_ref' });
  expect((await act({ ref: 'n999999', action: 'read' })).body).toMatchObject({
    error: 'invalid_argument',
    details: { field: 'ref' },
  });
  const inner = named(fresh.nodes, 'button', 'Inner')!;
  await ok('sandbox_accessibility_action', { ...sb, ref: inner.ref, action: 'press' });
  const pressed = await treeUntil((n) => named(n, 'button', 'Inner pressed') !== undefined);
  expect(named(pressed.nodes, 'button', 'Inner pressed')).toBeDefined();
  const focusable = named(pressed.nodes, 'link', 'Docs')!;
  expect((await act({ ref: focusable.ref, action: 'focus' })).body.done).toBe('focus');
  expect((await act({ ref: focusable.ref, action: 'read' })).body.states).toContain('focused');
});

/** A GTK window with a button that sets its label to "Hello": an AT-SPI app beside Chromium. */
const PROBE = `import gi
gi.require_version('Gtk', '3.0')
from gi.repository import Gtk
w = Gtk.Window(title='Probe')
w.move(700, 500)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
label = Gtk.Label(label='waiting')
button = Gtk.Button(label='Greet')
button.connect('clicked', lambda b: label.set_text('Hello'))
box.pack_start(label, False, False, 0)
box.pack_start(button, False, False, 0)
w.add(box)
w.show_all()
Gtk.main()
`;

it('merges the other apps (AT-SPI) after Chromium, and acts on them by ref too', async () => {
  await ok('sandbox_write_file', { ...sb, path: '/root/probe.py', content: PROBE });
  await ok('sandbox_exec', {
    ...sb,
    command: 'setsid /usr/bin/python3 /root/probe.py </dev/null >/tmp/probe.log 2>&1 &',
  });
  const t = await treeUntil((n) => named(n, 'push button', 'Greet') !== undefined);
  expect(t.apps).toEqual(['chromium', 'probe.py']);
  expect(t.nodes.map((n) => [n.role, n.name])).toEqual([
    ['application', 'chromium'],
    ['application', 'probe.py'],
  ]);
  const probe = await tree({ app: 'probe.py' });
  expect(probe.apps).toEqual(['probe.py']);
  const button = named(probe.nodes, 'push button', 'Greet')!;
  expect(named(probe.nodes, 'button', 'Sent')).toBeUndefined();
  expect((await act({ ref: button.ref, action: 'press' })).body).toEqual({
    ref: button.ref,
    done: 'press',
  });
  const after = await treeUntil((n) => named(n, 'label', 'Hello') !== undefined, {
    app: 'probe.py',
  });
  expect(named(after.nodes, 'label', 'Hello')).toBeDefined();
  const app = await act({ ref: after.nodes[0].ref, action: 'read' });
  expect(app.body).toMatchObject({ role: 'application', name: 'probe.py' });
  expect((await tree({ app: 'chromium' })).apps).toEqual(['chromium']);
});

it('records each action (what, on which role: never the text) as an event', async () => {
  const events = await box.api.app.get<EventStore>(EVENT_STORE).readStream(sandboxStream(box.id));
  const acts = events.filter((e) => e.type === 'SandboxDesktopAccessibilityActed');
  expect(acts.map((e) => (e.data as { act: unknown }).act)).toEqual([
    { app: 'chromium', role: 'textbox', action: 'set-text', characters: 3 },
    { app: 'chromium', role: 'button', action: 'press' },
    { app: 'chromium', role: 'button', action: 'press' },
    { app: 'chromium', role: 'link', action: 'focus' },
    { app: 'probe.py', role: 'push button', action: 'press' },
  ]);
  expect(JSON.stringify(events)).not.toContain('Ada');
});
