import { execFileSync } from 'node:child_process';
import { TerminalClock } from '../../src/terminal-mcp';
import { DEFAULT_ORG_ID } from '@sessionboxer/domain/org';
import {
  connectWithBearer,
  outputNotice,
  statusNotice,
  type TerminalClient,
} from './mcp-client-kit';
import { startTerminalWorld, until, type TerminalWorld } from './terminal-kit';

jest.setTimeout(90_000);

/** Reads everything from `from` until `text` shows up; answers the whole text read. */
async function readUntil(
  c: TerminalClient,
  sessionId: string,
  text: string,
  from = 0,
): Promise<{ all: string; end: number }> {
  let all = '';
  let at = from;
  await until(async () => {
    const page = await c.call('shellwatch_read_output', {
      sessionId,
      afterOffset: at,
      limit: 1024 * 1024,
    });
    all += page.data;
    at = page.endOffset;
    return all.includes(text);
  }, `"${text}" in the output`);
  return { all, end: at };
}

/** Whether a process with exactly this command line runs on the machine (sshd is local). */
function running(commandLine: string): boolean {
  try {
    execFileSync('pgrep', ['-xf', commandLine]);
    return true;
  } catch {
    return false;
  }
}

async function openSession(
  w: TerminalWorld,
  c: TerminalClient,
  endpointId: string,
): Promise<string> {
  const created = await c.call('shellwatch_create_session', { endpointId });
  expect(created).toEqual({ sessionId: expect.any(String), endpointId, status: 'pending' });
  const allowed = await w.api.request('POST', `/api/terminals/${created.sessionId}/allow`);
  expect(allowed.status).toBe(201);
  await c.waitFor(statusNotice(created.sessionId, 'open'));
  return created.sessionId as string;
}

describe('terminal MCP against a real sshd', () => {
  let w: TerminalWorld;
  beforeAll(async () => {
    w = await startTerminalWorld();
  });
  afterAll(() => w.stop());

  it('proof: endpoint, approval, echo, output_available, 1 MB paged by limit, ctrl:c, close', async () => {
    const c = await w.client();
    const endpointId = await w.endpoint(c);
    const keys = await c.call('shellwatch_manage_keys', { action: 'list' });
    expect(keys).toEqual([
      expect.objectContaining({
        keyId: w.keyId,
        kind: 'file',
        type: 'ssh-ed25519',
        comment: 'sb-test',
      }),
    ]);
    expect(JSON.stringify(keys)).not.toMatch(/PRIVATE|BEGIN/);

    const created = await c.call('shellwatch_create_session', { endpointId });
    expect(created).toEqual({ sessionId: expect.any(String), endpointId, status: 'pending' });
    const sessionId = created.sessionId as string;
    const card = (await w.api.request('GET', '/api/terminals')).body[0];
    expect(card).toMatchObject({
      terminalId: sessionId,
      awaitingApproval: true,
      requester: 'Proof client (granted by admin)',
      endpoint: { endpointId, host: '127.0.0.1', port: w.sshd.port, hostKeyFingerprint: null },
    });
    expect((await w.api.request('POST', `/api/terminals/${sessionId}/allow`)).status).toBe(201);
    await c.waitFor(statusNotice(sessionId, 'open'));
    const [endpoint] = await c.call('shellwatch_manage_endpoints', { action: 'list' });
    expect(endpoint.hostKeyFingerprint).toBe(w.sshd.hostFingerprint); // pinned at first approval
    const view = (await w.api.request('GET', '/api/terminals')).body[0];
    expect(view).toMatchObject({
      status: 'open',
      approvedBy: { kind: 'person', id: 'admin' },
      hostKeyFingerprint: w.sshd.hostFingerprint,
    });

    const before = c.notices.length;
    await c.call('shellwatch_send_keys', { sessionId, keys: ['text:echo hi-$((40+2))', 'enter'] });
    const notice = await c.waitFor(
      (n) => c.notices.indexOf(n) >= before && outputNotice(sessionId)(n),
    );
    const echoed = await readUntil(c, sessionId, 'hi-42', notice.params.offset as number);
    expect(echoed.all).toContain('hi-42');

    // 1 MB of output, paged with limit: every page in order, nothing lost, nothing twice.
    await c.call('shellwatch_send_keys', {
      sessionId,
      keys: ['text:head -c 1048576 /dev/zero | tr "\\0" x; echo; echo done-$((1+1))', 'enter'],
    });
    const big = await readUntil(c, sessionId, 'done-2', echoed.end);
    expect((big.all.match(/x/g) ?? []).length).toBeGreaterThanOrEqual(1048576);
    let at = echoed.end;
    let paged = '';
    let pages = 0;
    for (;;) {
      const page = await c.call('shellwatch_read_output', {
        sessionId,
        afterOffset: at,
        limit: 65536,
      });
      expect(page.startOffset).toBe(at);
      paged += page.data;
      at = page.endOffset;
      pages += 1;
      if (!page.truncated || at >= big.end) break;
      expect(page.endOffset - page.startOffset).toBeLessThanOrEqual(65536);
    }
    expect(pages).toBeGreaterThanOrEqual(16);
    expect(paged.startsWith(big.all.slice(0, paged.length))).toBe(true);

    // Multi-byte characters paged at an odd limit: never a broken character.
    await c.call('shellwatch_send_keys', {
      sessionId,
      keys: ['text:yes "é✓🙂" | head -n 3000 | tr -d "\\n"; echo; echo utf-$((4+4))', 'enter'],
    });
    const utf = await readUntil(c, sessionId, 'utf-8', at);
    let joined = '';
    for (let from = at; from < utf.end;) {
      const page = await c.call('shellwatch_read_output', {
        sessionId,
        afterOffset: from,
        // Up to where the first read stopped: more (the next prompt) may have come since.
        limit: Math.min(1001, utf.end - from),
      });
      expect(page.data).not.toContain('\uFFFD');
      joined += page.data;
      from = page.endOffset;
    }
    expect(joined).toBe(utf.all);
    expect(joined).toContain('é✓🙂'.repeat(3000));

    // An unknown token refuses the whole call and names it.
    const bad = await c.refused('shellwatch_send_keys', {
      sessionId,
      keys: ['text:echo never-$((1+1))', 'ctrl:1', 'enter'],
    });
    expect(bad).toMatchObject({ statusCode: 400, error: 'VALIDATION_FAILED' });
    expect(bad.message).toContain('"ctrl:1"');

    await c.call('shellwatch_send_keys', { sessionId, keys: ['text:sleep 4217', 'enter'] });
    // ctrl:c before the shell has handed the terminal to sleep would reach the shell instead,
    // and the next line would wait 70 minutes behind sleep: wait until sleep is running.
    await until(() => running('sleep 4217'), 'sleep to be running');
    await c.call('shellwatch_send_keys', {
      sessionId,
      keys: ['ctrl:c', 'text:echo after-$((2+3))', 'enter'],
    });
    const after = await readUntil(c, sessionId, 'after-5', utf.end);
    expect(after.all).not.toContain('never-2');

    expect(await c.call('shellwatch_close_session', { sessionId })).toEqual({
      sessionId,
      status: 'closed',
    });
    await c.waitFor(statusNotice(sessionId, 'closed'));
    expect(await c.call('shellwatch_list_sessions')).toEqual([
      { sessionId, endpointId, status: 'closed', createdAt: expect.any(String) },
    ]);
    await until(() => w.sshd.connections() === 0, "sshd's connection to end");

    // The whole output is in the log: exported as asciicast v2, with the multi-byte text whole.
    const cast = await fetch(`${w.api.url}/api/terminals/${sessionId}/asciicast`, {
      headers: w.api.authHeaders,
    });
    expect(cast.status).toBe(200);
    const [header, ...frames] = (await cast.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(header).toMatchObject({ version: 2, width: 120, height: 40 });
    const played = frames.map((f: [number, string, string]) => f[2]).join('');
    expect(played).toContain('hi-42');
    expect(played).toContain('é✓🙂'.repeat(3000));
    expect(played).not.toContain('\uFFFD');
  });

  it("two clients: the other's session answers exactly like a made-up one", async () => {
    const a = await w.client();
    const b = await w.client();
    const endpointId = await w.endpoint(a);
    const sessionId = await openSession(w, a, endpointId);
    const madeUp = '00000000-0000-4000-8000-000000000000';
    for (const [tool, extra] of [
      ['shellwatch_read_output', {}],
      ['shellwatch_send_keys', { keys: ['enter'] }],
      ['shellwatch_close_session', {}],
    ] as const) {
      const theirs = await b.refused(tool, { sessionId, ...extra });
      const none = await b.refused(tool, { sessionId: madeUp, ...extra });
      expect(theirs).toEqual({ ...none, message: none.message.replace(madeUp, sessionId) });
      expect(theirs.statusCode).toBe(404);
    }
    expect(await b.call('shellwatch_list_sessions')).toEqual([]);
    await a.call('shellwatch_close_session', { sessionId });
  });

  it('client disconnects: its sessions close and sshd’s connection ends', async () => {
    const c = await w.client();
    const endpointId = await w.endpoint(c);
    const sessionId = await openSession(w, c, endpointId);
    await until(() => w.sshd.connections() > 0, 'an sshd connection');
    await c.transport.terminateSession(); // DELETE /mcp
    await until(async () => {
      const t = (await w.api.request('GET', '/api/terminals')).body.find(
        (v: { terminalId: string }) => v.terminalId === sessionId,
      );
      return t.status === 'closed' && t.endReason === 'transport-disconnected';
    }, 'the session to close');
    await until(() => w.sshd.connections() === 0, "sshd's connection to end");

    // A client that just goes away (its notification stream closes) is closed after the lease.
    const d = await w.client();
    const second = await openSession(w, d, endpointId);
    await d.close();
    await until(async () => {
      const t = (await w.api.request('GET', '/api/terminals')).body.find(
        (v: { terminalId: string }) => v.terminalId === second,
      );
      return t.status === 'closed';
    }, 'the lease to end the session');
    await until(() => w.sshd.connections() === 0, "sshd's connection to end");
  });

  it('approver silent → sign timeout after 60 s (clock seam); host key changed → refused and reported', async () => {
    const c = await w.client();
    const endpointId = await w.endpoint(c);
    const { sessionId } = await c.call('shellwatch_create_session', { endpointId });
    w.api.app.get(TerminalClock).advance(60_000);
    await c.waitFor(statusNotice(sessionId, 'errored'));
    const late = await w.api.request('POST', `/api/terminals/${sessionId}/allow`);
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/sign timeout/);
    const t = (await w.api.request('GET', '/api/terminals')).body.find(
      (v: { terminalId: string }) => v.terminalId === sessionId,
    );
    expect(t.endReason).toMatch(/sign timeout/);

    await openSession(w, c, endpointId).then((id) =>
      c.call('shellwatch_close_session', { sessionId: id }),
    );
    const pinned = w.sshd.hostFingerprint;
    await w.sshd.changeHostKey();
    const again = await c.call('shellwatch_create_session', { endpointId });
    await w.api.request('POST', `/api/terminals/${again.sessionId}/allow`);
    await c.waitFor(statusNotice(again.sessionId, 'errored'));
    const refused = (await w.api.request('GET', '/api/terminals')).body.find(
      (v: { terminalId: string }) => v.terminalId === again.sessionId,
    );
    expect(refused.endReason).toContain(`host key changed`);
    expect(refused.endReason).toContain(pinned);
    expect(refused.endReason).toContain(w.sshd.hostFingerprint);
  });

  it('no approver browser connected → refused at once, 403-style', async () => {
    const c = await w.client();
    const endpointId = await w.endpoint(c);
    await w.disconnectApprover();
    const refused = await until(async () => {
      const r = await c.client.callTool({
        name: 'shellwatch_create_session',
        arguments: { endpointId },
      });
      return r.isError
        ? (JSON.parse((r.content as { text: string }[])[0].text) as {
            statusCode: number;
            message: string;
          })
        : null;
    }, 'the refusal');
    expect(refused.statusCode).toBe(403);
    expect(refused.message).toMatch(/no approver's browser is connected/);
    await w.connectApprover();
  });

  it("an org API key (issue 16's) connects as a program; one without write access only lists endpoints", async () => {
    const made = await w.api.request('POST', `/api/orgs/${DEFAULT_ORG_ID}/api-keys`, {
      name: 'read-only',
      scopes: ['sandboxes:read'],
    });
    expect(made.status).toBe(201);
    const key = await connectWithBearer(w.mcpUrl, made.body.key as string);
    try {
      const owner = await w.client();
      const endpointId = await w.endpoint(owner);
      const listed = await key.call('shellwatch_manage_endpoints', { action: 'list' });
      expect(listed.map((e: { endpointId: string }) => e.endpointId)).toContain(endpointId);
      const refused = await key.refused('shellwatch_manage_endpoints', {
        action: 'delete',
        endpointId,
      });
      expect(refused).toMatchObject({ statusCode: 403, error: 'FORBIDDEN' });
      expect(refused.message).toMatch(/no endpoint write access/);
      const { sessionId } = await key.call('shellwatch_create_session', { endpointId });
      const view = (await w.api.request('GET', '/api/terminals')).body.find(
        (v: { terminalId: string }) => v.terminalId === sessionId,
      );
      expect(view.requester).toBe(
        `API key ${made.body.keyId as string} (granted by org ${DEFAULT_ORG_ID})`,
      );
      await key.call('shellwatch_close_session', { sessionId });
    } finally {
      await key.close();
    }
    const bad = await fetch(w.mcpUrl, {
      method: 'POST',
      headers: { authorization: 'Bearer sbk_nope' },
    });
    expect(bad.status).toBe(401);
  });
});
