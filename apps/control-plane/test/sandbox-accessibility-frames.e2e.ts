import { a11ySandbox, named, type A11yNode } from './a11y-kit';
import { find, until } from './sandbox-desktop-kit';

/**
 * A frame of another site in the tree: Chromium renders a cross-site iframe in a process of its
 * own (a DevTools target apart from its tab's), so its nodes come from that target, placed at
 * the iframe's box. Served over HTTP inside the sandbox, the page from 127.0.0.1 and its frame
 * from localhost (two sites); real bubblewrap, Xvfb, Chromium and MCP client.
 */
jest.setTimeout(120_000);

const box = a11ySandbox('frames');
const { sb, ok, treeUntil } = box;
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

it("reads a cross-site iframe's nodes where they are, and acts on them", async () => {
  await ok('sandbox_desktop', sb);
  await ok('sandbox_write_file', { ...sb, path: '/root/www/page.html', content: PAGE });
  await ok('sandbox_write_file', { ...sb, path: '/root/www/frame.html', content: FRAME });
  await ok('sandbox_exec', {
    ...sb,
    command: `setsid python3 -m http.server ${PORT} --bind 127.0.0.1 -d /root/www </dev/null >/tmp/http.log 2>&1 & sleep 1`,
  });
  await ok('sandbox_open_url', { ...sb, urls: [`http://127.0.0.1:${PORT}/page.html`] });
  const { nodes } = await treeUntil((n) => named(n, 'button', 'Other') !== undefined);
  expect(named(nodes, 'button', 'Other')).toBeDefined();

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
  const s = await until(box.client, box.id, (x) => find(x.png, RED).count > 5000);
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
  expect(named(after.nodes, 'button', 'Other Lin')).toBeDefined();
  expect(named(after.nodes, 'button', 'Other')).toBeUndefined();
});
