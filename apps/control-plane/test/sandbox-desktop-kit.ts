import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { decodePng, type DecodedPng } from '../../box-agent/src/desktop/test/png-decode';
import { call } from './sandbox-kit';

/**
 * The test page of the desktop proofs: a text field painted magenta and a button painted
 * blue, so a screenshot finds them; the button sets the title to "Hello <field>" and paints
 * the page green.
 */
export const FORM_PAGE = `<!doctype html><html><head><title>form</title><style>
body { margin: 0; background: #ffffff; }
#name { position: absolute; left: 60px; top: 60px; width: 320px; height: 48px;
  background: #ff00ff; border: 0; font-size: 24px; outline: none; }
#go { position: absolute; left: 60px; top: 160px; width: 200px; height: 60px;
  background: #0000ff; border: 0; }
</style></head><body>
<input id="name" autocomplete="off"><button id="go"></button>
<script>
document.getElementById('go').addEventListener('click', () => {
  document.title = 'Hello ' + document.getElementById('name').value;
  document.body.style.background = '#00ff00';
});
</script></body></html>`;

export interface Shot {
  png: DecodedPng;
  size: { width: number; height: number };
}

/** sandbox_screenshot over MCP: the image item decoded, and the text item's size. */
export async function shot(client: Client, args: Record<string, unknown>): Promise<Shot> {
  const res = (await client.callTool({ name: 'sandbox_screenshot', arguments: args })) as {
    isError?: boolean;
    content: { type: string; data?: string; mimeType?: string; text?: string }[];
  };
  if (res.isError) throw new Error(`screenshot refused: ${res.content[0]?.text}`);
  const [image, text] = res.content;
  if (image.type !== 'image' || image.mimeType !== 'image/png' || text.type !== 'text') {
    throw new Error(
      `not an image and a text item: ${JSON.stringify(res.content.map((c) => c.type))}`,
    );
  }
  return { png: decodePng(Buffer.from(image.data!, 'base64')), size: JSON.parse(text.text!) };
}

/** The centre of the pixels of colour `rgb` (exact), and how many there are. */
export function find(png: DecodedPng, rgb: [number, number, number]) {
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * png.channels;
      const p = png.pixels;
      if (p[i] === rgb[0] && p[i + 1] === rgb[1] && p[i + 2] === rgb[2]) {
        n++;
        sx += x;
        sy += y;
      }
    }
  }
  return { count: n, x: n ? Math.round(sx / n) : -1, y: n ? Math.round(sy / n) : -1 };
}

/** Polls screenshots until `ok` holds, for up to `ms`. */
export async function until(
  client: Client,
  sandbox: string,
  ok: (s: Shot) => boolean,
  ms = 15_000,
): Promise<Shot> {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await shot(client, { sandbox });
    if (ok(s) || Date.now() > deadline) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The titles of Chromium's pages, read over DevTools from inside the sandbox. */
export async function pageTitles(client: Client, sandbox: string): Promise<string[]> {
  const script =
    "fetch('http://127.0.0.1:9222/json/list').then(r => r.json()).then(l => console.log(JSON.stringify(l.filter(t => t.type === 'page').map(t => t.title))))";
  const r = await call(client, 'sandbox_exec', {
    sandbox,
    command: `node -e "${script}"`,
  });
  if (r.isError || r.body.exit_code !== 0) throw new Error(JSON.stringify(r.body));
  return JSON.parse(r.body.stdout) as string[];
}
