import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningApp } from './harness';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';

/**
 * Every rule of sandbox_input (and the other desktop tools' parameters) refused with the
 * parameter named, over a real MCP client and over REST, on a running desktop; and a
 * refused input changes nothing (the pointer stays where it was).
 */
let api: RunningApp;
let client: Client;
let key: string;
const sb = { sandbox: 'rules' };

beforeAll(async () => {
  api = await startSandboxApp();
  key = (await makeKey(api)).key;
  client = await mcpClient(api, key);
  await call(client, 'sandbox_create', { name: 'rules' });
  const started = await call(client, 'sandbox_desktop', { ...sb, resolution: '800x600' });
  if (started.isError) throw new Error(JSON.stringify(started.body));
}, 90_000);
afterAll(async () => {
  await call(client, 'sandbox_destroy', sb);
  await client.close();
  await api.close();
});

/**
 * The parameter a refusal names: the API's `details.field`, or, for a type or range the
 * MCP SDK's own schema check refuses first (plain text), the zod issue's path or key.
 */
function named(r: { body: unknown }): string | undefined {
  if (typeof r.body === 'object' && r.body !== null) {
    const body = r.body as { error?: string; details?: { field?: string } };
    return body.error === 'invalid_argument' ? body.details?.field : undefined;
  }
  // "Invalid arguments for tool sandbox_input: Number must be less than or equal to 3 at count"
  const text = String(r.body);
  return (
    / at ([a-z_]+)(?:\.\d+)?$/.exec(text)?.[1] ??
    /Unrecognized key\(s\) in object: '([^']+)'/.exec(text)?.[1]
  );
}

const input = (args: Record<string, unknown>) => call(client, 'sandbox_input', { ...sb, ...args });

describe('sandbox_input', () => {
  it.each([
    ['a parameter move does not use', { action: 'move', x: 1, y: 1, text: 'a' }, 'text'],
    ['to_x on click', { action: 'click', to_x: 5 }, 'to_x'],
    ['button on drag', { action: 'drag', x: 1, y: 1, to_x: 2, to_y: 2, button: 'right' }, 'button'],
    ['x on down', { action: 'down', x: 1, y: 1 }, 'x'],
    ['keys on type', { action: 'type', text: 'a', keys: ['a'] }, 'keys'],
    ['repeat on hold', { action: 'hold', keys: ['a'], seconds: 0, repeat: 2 }, 'repeat'],
    ['modifiers on key', { action: 'key', keys: ['a'], modifiers: 'ctrl' }, 'modifiers'],
    ['amount on click', { action: 'click', amount: 3 }, 'amount'],
    ['seconds on scroll', { action: 'scroll', direction: 'up', seconds: 1 }, 'seconds'],
    ['button on cursor', { action: 'cursor', button: 'left' }, 'button'],
    ['x without y', { action: 'click', x: 10 }, 'y'],
    ['y without x', { action: 'scroll', direction: 'up', y: 10 }, 'x'],
    ['move without a position', { action: 'move' }, 'x'],
    ['drag without to_x', { action: 'drag', x: 1, y: 1, to_y: 2 }, 'to_x'],
    ['type without text', { action: 'type' }, 'text'],
    ['key without keys', { action: 'key' }, 'keys'],
    ['hold without seconds', { action: 'hold', keys: ['a'] }, 'seconds'],
    ['scroll without direction', { action: 'scroll' }, 'direction'],
    ['count with double', { action: 'click', count: 2, double: true }, 'double'],
    ['count 4', { action: 'click', count: 4 }, 'count'],
    ['amount 0', { action: 'scroll', direction: 'up', amount: 0 }, 'amount'],
    ['amount 101', { action: 'scroll', direction: 'up', amount: 101 }, 'amount'],
    ['repeat 0', { action: 'key', keys: ['a'], repeat: 0 }, 'repeat'],
    ['repeat 101', { action: 'key', keys: ['a'], repeat: 101 }, 'repeat'],
    ['seconds past 300', { action: 'hold', keys: ['a'], seconds: 300.5 }, 'seconds'],
    ['negative seconds', { action: 'hold', keys: ['a'], seconds: -1 }, 'seconds'],
    ['x off the screen', { action: 'move', x: 800, y: 0 }, 'x'],
    ['to_y off the screen', { action: 'drag', x: 1, y: 1, to_x: 2, to_y: 600 }, 'to_y'],
    ['a negative y', { action: 'move', x: 0, y: -1 }, 'y'],
    ['a fractional x', { action: 'move', x: 1.5, y: 1 }, 'x'],
    ['an unknown key', { action: 'key', keys: ['Enterr'] }, 'keys'],
    ['two keys in one item', { action: 'key', keys: ['a b'] }, 'keys'],
    ['an unknown modifier', { action: 'click', modifiers: 'ctrl+hyper' }, 'modifiers'],
    ['an unknown button', { action: 'click', button: 'back' }, 'button'],
    ['an unknown direction', { action: 'scroll', direction: 'in' }, 'direction'],
    ['an unknown action', { action: 'tap' }, 'action'],
    ['a control character in text', { action: 'type', text: 'a\u0007' }, 'text'],
    ['an unknown parameter', { action: 'click', z: 1 }, 'z'],
  ])('refuses %s, naming it', async (_case, args, field) => {
    await input({ action: 'move', x: 7, y: 9 });
    const r = await input(args);
    expect([r.isError, named(r)]).toEqual([true, field]);
    expect((await input({ action: 'cursor' })).body).toEqual({ x: 7, y: 9 });
  });

  it('accepts each action of the table with what it uses', async () => {
    const cases: Record<string, unknown>[] = [
      { action: 'click' },
      { action: 'click', x: 5, y: 5, button: 'right', modifiers: 'ctrl+shift' },
      { action: 'click', x: 5, y: 5, double: true },
      { action: 'click', count: 3 },
      { action: 'move', x: 20, y: 30 },
      { action: 'down' },
      { action: 'up' },
      { action: 'drag', x: 10, y: 10, to_x: 40, to_y: 40, modifiers: 'shift' },
      { action: 'type', text: 'hi\tthere\n' },
      { action: 'key', keys: ['Escape', 'ctrl+l'], repeat: 2 },
      { action: 'hold', keys: ['shift'], seconds: 0.05 },
      { action: 'scroll', direction: 'down' },
      { action: 'scroll', direction: 'left', amount: 2, x: 100, y: 100, modifiers: 'alt' },
    ];
    for (const args of cases) {
      const r = await input(args);
      expect([args, r.isError, r.body]).toEqual([args, false, { done: args.action }]);
    }
    expect((await input({ action: 'cursor' })).body).toEqual({ x: 100, y: 100 });
  }, 60_000);

  it('REST answers the same refusal with 400', async () => {
    const res = await fetch(`${api.url}/v1/sandbox_input`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ ...sb, action: 'move', x: 1, y: 1, count: 2 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid_argument',
      details: { field: 'count' },
    });
  });
});

describe('the other desktop tools', () => {
  it.each([
    ['sandbox_desktop', { action: 'start', resolution: '1280' }, 'resolution'],
    ['sandbox_desktop', { action: 'start', resolution: '100x100' }, 'resolution'],
    ['sandbox_desktop', { action: 'status', resolution: '1280x800' }, 'resolution'],
    ['sandbox_desktop', { action: 'restart' }, 'action'],
    ['sandbox_open_url', { urls: [] }, 'urls'],
    ['sandbox_open_url', { urls: ['not a url'] }, 'urls'],
    ['sandbox_screenshot', { region: [0, 0, 10] }, 'region'],
    ['sandbox_screenshot', { region: [0, 0, 801, 10] }, 'region'],
  ])('%s refuses %j, naming %s', async (name, args, field) => {
    const r = await call(client, name, { ...sb, ...args });
    expect([r.isError, named(r)]).toEqual([true, field]);
  });

  it('REST sandbox_screenshot answers width, height and the PNG in base64', async () => {
    const res = await fetch(`${api.url}/v1/sandbox_screenshot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(sb),
    });
    const body = (await res.json()) as { width: number; height: number; data: string };
    expect([res.status, body.width, body.height]).toEqual([200, 800, 600]);
    expect(Buffer.from(body.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });
});
