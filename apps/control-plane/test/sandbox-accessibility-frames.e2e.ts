import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningApp } from './harness';
import { named, type A11yNode } from './a11y-kit';
import { find, until } from './sandbox-desktop-kit';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';

/**
 * A frame of another site in the tree: Chromium renders a cross-site iframe in a process of its
 * own (a DevTools target apart from its tab's), so its nodes come from that target, placed at
 * the iframe's box. Served over HTTP inside the sandbox, the page from 127.0.0.1 and its frame
 * from localhost (two sites); real bubblewrap, Xvfb, Chromium and MCP client.
 */
jest.setTimeout(120_000);

let api: RunningApp;
let client: Client;
let id: string;
const sb = { sandbox: 'frames' };
const PORT = 8741;
const RED: [number, number, number] = [255, 0, 0];

const PAGE = `<!doctype html><html><head><title>two sites</title></head>
<body style="margin:0;background:#ffffff">
<iframe src="http://localhost:${PORT}/frame.html" title="other site"
  style="position:absolute;left:200px;top:100px;width:400px;height:220px;border:0"></iframe>
</body></html>`;

const FRAME = `<!doctype html><html><head><title>the other site</title></head>
<body style="margin:0;background:#ffffff">
<input id="f" aria-label="Other field" autocomplete="off"
  style="position:absolute;left:10px;top:10px;width:200px;height:30px">
<button id="b" style="position:absolute;left:10px;top:80px;width:150px;height:40px;
  background:#ff0000;color:#ff0000;border:0">Other</button>
<script>document.getElementById('b').addEventListener('click', (e) => {
  e.target.textContent = 'Other ' + document.getElementById('f').value; });</script>
</body></html>`;

const ok = async (name: string, args: Record<string, unknown>) => {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
  return r.body;
};

async function treeUntil(okay: (nodes: A11yNode[]) => boolean): Promise<A11yNode[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { nodes } = (await ok('sandbox_accessibility_tree', sb)) as { nodes: A11yNode[] };
    if (okay(nodes)) return nodes;
    if (Date.now() > deadline) throw new Error(`not in the tree: ${JSON.stringify(nodes)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  api = await startSandboxApp();
  client = await mcpClient(api, (await makeKey(api)).key);
  id = (await call(client, 'sandbox_create', { name: 'frames' })).body.id;
}, 60_000);
afterAll(async () => {
  await call(client, 'sandbox_desktop', { ...sb, action: 'stop' });
  await call(client, 'sandbox_destroy', sb);
  await client.close();
  await api.close();
});

it("reads a cross-site iframe's nodes where they are, and acts on them", async () => {
  await ok('sandbox_desktop', sb);
  await ok('sandbox_write_file', { ...sb, path: '/root/www/page.html', content: PAGE });
  await ok('sandbox_write_file', { ...sb, path: '/root/www/frame.html', content: FRAME });
  await ok('sandbox_exec', {
    ...sb,
    command: `setsid python3 -m http.server ${PORT} --bind 127.0.0.1 -d /root/www </dev/null >/tmp/http.log 2>&1 & sleep 1`,
  });
  await ok('sandbox_open_url', { ...sb, urls: [`http://127.0.0.1:${PORT}/page.html`] });
  const nodes = await treeUntil((n) => named(n, 'button', 'Other') !== undefined);

  // The frame's document is under the page's iframe node, in the page's document.
  const page = named(nodes, 'document', 'two sites')!;
  const frame = named(page.children ?? [], 'document', 'the other site');
  expect(frame).toBeDefined();
  const button = named(nodes, 'button', 'Other')!;
  const field = named(nodes, 'textbox', 'Other field')!;
  expect(field.actions).toEqual(expect.arrayContaining(['focus', 'set-text']));
  // Placed at the iframe's box: the page's origin plus the iframe's place plus its own.
  expect([button.bounds![0] - page.bounds![0], button.bounds![1] - page.bounds![1]]).toEqual([
    200 + 10,
    100 + 80,
  ]);
  expect([button.bounds![2], button.bounds![3]]).toEqual([150, 40]);
  // And that is where the screenshot has the red button.
  const s = await until(client, id, (x) => find(x.png, RED).count > 5000);
  const red = find(s.png, RED);
  expect(Math.abs(button.bounds![0] + 75 - red.x)).toBeLessThanOrEqual(2);
  expect(Math.abs(button.bounds![1] + 20 - red.y)).toBeLessThanOrEqual(2);

  // set-text and press go through the frame's own target; read shows the result.
  const act = (ref: string, action: string, text?: string) =>
    ok('sandbox_accessibility_action', { ...sb, ref, action, ...(text ? { text } : {}) });
  expect(await act(field.ref, 'set-text', 'Lin')).toEqual({ ref: field.ref, done: 'set-text' });
  expect(await act(field.ref, 'read')).toMatchObject({ role: 'textbox', text: 'Lin' });
  const read = (await act(button.ref, 'read')) as A11yNode;
  expect(read.bounds).toEqual(button.bounds);
  expect(await act(button.ref, 'press')).toEqual({ ref: button.ref, done: 'press' });
  const after = await treeUntil((n) => named(n, 'button', 'Other Lin') !== undefined);
  expect(named(after, 'button', 'Other')).toBeUndefined();
});
