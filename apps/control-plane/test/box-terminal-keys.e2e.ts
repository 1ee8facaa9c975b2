import * as fs from 'node:fs';
import type { EventStore } from '@sessionboxer/event-store';
import { sessionStream } from '@sessionboxer/domain';
import WebSocket from 'ws';
import { EVENT_STORE } from '../src/infrastructure/tokens';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

jest.setTimeout(90_000);

interface Frame {
  event: string;
  data: any;
}

/**
 * A person's own box Terminal over REST and the /api/ui socket, with a real box: opened,
 * typed into and resized live, its output caught up by offset from the history, and every
 * bad or refused frame answered with an error frame while the socket stays open.
 */
describe("a person's live box Terminal", () => {
  let api: RunningApp;
  let id: string;
  let ui: WebSocket;
  const frames: Frame[] = [];

  const send = (event: string, data: unknown) => ui.send(JSON.stringify({ event, data }));
  const output = (terminalId: string) =>
    Buffer.concat(
      frames
        .filter((f) => f.event === 'session.terminal.output' && f.data.terminalId === terminalId)
        .map((f) => Buffer.from(f.data.data, 'base64')),
    ).toString('utf8');
  const errorAfter = async (since: number) =>
    (await waitFor('an error frame', () => frames.slice(since).find((f) => f.event === 'error')))
      .data;
  const refusal = async (event: string, data: unknown) => {
    const since = frames.length;
    send(event, data);
    return errorAfter(since);
  };

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    id = (await api.request('POST', '/api/sessions', { title: 'Live terminals' })).body.id;
    await waitForBox(api, id);
    ui = new WebSocket(api.url.replace('http', 'ws') + '/api/ui', { headers: api.authHeaders });
    ui.on('message', (m) => frames.push(JSON.parse((m as Buffer).toString())));
    await new Promise((r) => ui.once('open', r));
    send('watch', { sessionId: id });
    await waitFor('watching', () => frames.find((f) => f.event === 'watching'));
  });
  afterAll(async () => {
    ui?.close();
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('opens a login shell for the person, streams its output live and takes their keys', async () => {
    const opened = await api.request('POST', `/api/sessions/${id}/terminals`, {});
    expect(opened.status).toBe(201);
    const terminalId = opened.body.id as string;
    expect(opened.body).toEqual({ id: terminalId, createdAt: expect.any(String), exitCode: null });
    await waitFor('the Terminal listed', async () =>
      (await api.request('GET', `/api/sessions/${id}/terminals`)).body.some(
        (t: any) => t.id === terminalId,
      ),
    );

    send('session.terminal.input', { sessionId: id, terminalId, data: 'echo $((6*7))\r' });
    await waitFor('42 live', () => /[\r\n]42\r\n/.test(output(terminalId)));
    send('session.terminal.input', {
      sessionId: id,
      terminalId,
      data: 'echo "size $(stty size)"\r',
    });
    await waitFor('the first size', () => /size 30 120/.test(output(terminalId)));
    send('session.terminal.resize', { sessionId: id, terminalId, cols: 80, rows: 24 });
    send('session.terminal.input', {
      sessionId: id,
      terminalId,
      data: 'echo "size $(stty size)"\r',
    });
    await waitFor('the new size', () => /size 24 80/.test(output(terminalId)));

    // The history has every byte the socket showed: paged back by offset, in small pages too.
    const live = output(terminalId);
    const whole = await api.request('GET', `/api/sessions/${id}/terminals/${terminalId}/output`);
    expect(whole.status).toBe(200);
    expect(Buffer.from(whole.body.data, 'base64').toString('utf8').startsWith(live)).toBe(true);
    const pages: Buffer[] = [];
    for (let after = 0, truncated = true; truncated;) {
      const page = (
        await api.request(
          'GET',
          `/api/sessions/${id}/terminals/${terminalId}/output?afterOffset=${after}&limit=7`,
        )
      ).body;
      expect(page.startOffset).toBe(after);
      pages.push(Buffer.from(page.data, 'base64'));
      ({ truncated } = page);
      after = page.endOffset;
    }
    expect(Buffer.concat(pages).toString('base64')).toBe(whole.body.data);

    // Who typed is recorded once, from the socket's sign-in; what they typed is not.
    const events = await api.app.get<EventStore>(EVENT_STORE).readStream(sessionStream(id));
    const typed = events.filter((e) => e.type === 'TerminalTypedInto');
    expect(typed).toHaveLength(1);
    expect(typed[0].data).toEqual({
      sessionId: id,
      terminalId,
      by: { kind: 'person', id: api.credentials.username },
      at: expect.any(String),
    });
    expect(JSON.stringify(typed)).not.toContain('6*7');
    const openedEvent = events.find((e) => e.type === 'TerminalOpened') as any;
    expect(openedEvent.data).toMatchObject({ terminalId, command: null, openedBy: 'person' });
    expect(openedEvent.metadata.actor).toEqual({ kind: 'person', id: api.credentials.username });

    // An exited Terminal refuses input with why, and the socket stays open.
    send('session.terminal.input', { sessionId: id, terminalId, data: 'exit\r' });
    await waitFor('the exit', async () =>
      (await api.request('GET', `/api/sessions/${id}/terminals`)).body.some(
        (t: any) => t.id === terminalId && t.exitCode === 0,
      ),
    );
    const exited = await refusal('session.terminal.input', {
      sessionId: id,
      terminalId,
      data: 'x',
    });
    expect(exited).toEqual({
      code: 'INVALID_STATE',
      message: `Terminal ${terminalId} has exited (exit code 0): it takes no more input (open a new terminal)`,
      frame: 'session.terminal.input',
      terminalId,
    });
    const resized = await refusal('session.terminal.resize', {
      sessionId: id,
      terminalId,
      cols: 80,
      rows: 24,
    });
    expect(resized).toMatchObject({ code: 'INVALID_STATE', terminalId });
  });

  it.each([
    ['not an object', 'session.terminal.input', 'keys', /session.terminal.input needs/],
    ['no data', 'session.terminal.input', { sessionId: 'S', terminalId: 't' }, /data: Required/],
    [
      'empty data',
      'session.terminal.input',
      { sessionId: 'S', terminalId: 't', data: '' },
      /data:/,
    ],
    [
      'too much data',
      'session.terminal.input',
      { sessionId: 'S', terminalId: 't', data: 'x'.repeat(64 * 1024 + 1) },
      /data:/,
    ],
    [
      'a bad session id',
      'session.terminal.input',
      { sessionId: 'x', terminalId: 't', data: 'a' },
      /sessionId/,
    ],
    [
      'a field that names who types',
      'session.terminal.input',
      { sessionId: 'S', terminalId: 't', data: 'a', by: 'mallory' },
      /Unrecognized key.*by/,
    ],
    [
      'cols past 500',
      'session.terminal.resize',
      { sessionId: 'S', terminalId: 't', cols: 501, rows: 24 },
      /cols/,
    ],
    [
      'rows of 0',
      'session.terminal.resize',
      { sessionId: 'S', terminalId: 't', cols: 80, rows: 0 },
      /rows/,
    ],
    [
      'fractional cols',
      'session.terminal.resize',
      { sessionId: 'S', terminalId: 't', cols: 80.5, rows: 9 },
      /cols/,
    ],
  ])('refuses %s, naming the field, and keeps the socket', async (_case, event, raw, why) => {
    const data =
      typeof raw === 'object'
        ? { ...raw, sessionId: raw.sessionId === 'S' ? id : raw.sessionId }
        : raw;
    const answer = await refusal(event, data);
    expect(answer).toMatchObject({ code: 'VALIDATION_FAILED', frame: event });
    expect(answer.message).toMatch(why);
    expect(ui.readyState).toBe(WebSocket.OPEN);
  });

  it('refuses a Terminal the session does not have, and any once the box is frozen', async () => {
    const unknown = await refusal('session.terminal.input', {
      sessionId: id,
      terminalId: 'no-such-terminal',
      data: 'ls\r',
    });
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', terminalId: 'no-such-terminal' });
    expect(unknown.message).toMatch(/has no Terminal no-such-terminal/);

    const running = (await api.request('POST', `/api/sessions/${id}/terminals`, {})).body.id;
    expect((await api.request('POST', `/api/sessions/${id}/stop`, {})).status).toBe(200);
    const frozen = await refusal('session.terminal.input', {
      sessionId: id,
      terminalId: running,
      data: 'ls\r',
    });
    expect(frozen.code).toBe('INVALID_STATE');
    expect(frozen.message).toMatch(/is not running \(frozen\): resume the session/);
    const refused = await api.request('POST', `/api/sessions/${id}/terminals`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/not running/);
    // The socket still works.
    const since = frames.length;
    send('watch', { sessionId: id });
    await waitFor('watching again', () => frames.slice(since).find((f) => f.event === 'watching'));
  });
});
