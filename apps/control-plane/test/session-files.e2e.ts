import * as fs from 'node:fs';
import * as path from 'node:path';
import { startApp, type RunningApp } from './harness';

describe("a session's files, its snapshots' Fork and its Terminals, over the admin API (no box)", () => {
  let api: RunningApp;
  let id: string;
  let workspace: string;
  const video = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));

  const file = (boxPath: string, headers: Record<string, string> = {}) =>
    fetch(`${api.url}/api/sessions/${id}/files?path=${encodeURIComponent(boxPath)}`, {
      headers: { ...api.authHeaders, ...headers },
    });

  beforeAll(async () => {
    api = await startApp();
    id = (await api.request('POST', '/api/sessions', { title: 'Files' })).body.id;
    // Boxes are off here: the workspace a box would have, made by hand.
    workspace = path.join(api.dataDir, 'boxes', id, 'workspace');
    fs.mkdirSync(path.join(workspace, 'recordings'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'recordings', 'demo.mp4'), video);
    fs.writeFileSync(
      path.join(workspace, 'recordings', 'demo.vtt'),
      'WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n',
    );
    fs.writeFileSync(
      path.join(workspace, 'shot.png'),
      Buffer.from('\x89PNG\r\n\x1a\nfake', 'latin1'),
    );
    fs.writeFileSync(path.join(workspace, 'page.html'), '<script>alert(1)</script>');
    fs.writeFileSync(path.join(api.dataDir, 'secret.txt'), 'outside the workspace');
    fs.symlinkSync(path.join(api.dataDir, 'secret.txt'), path.join(workspace, 'escape.txt'));
    fs.symlinkSync('/etc', path.join(workspace, 'etc'));
    fs.symlinkSync('recordings/demo.vtt', path.join(workspace, 'captions.vtt'));
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('serves a workspace file with its content type', async () => {
    const mp4 = await file('/workspace/recordings/demo.mp4');
    expect(mp4.status).toBe(200);
    expect(mp4.headers.get('content-type')).toBe('video/mp4');
    expect(mp4.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await mp4.arrayBuffer()).equals(video)).toBe(true);
    const vtt = await file('/workspace/recordings/demo.vtt');
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect(await vtt.text()).toMatch(/^WEBVTT/);
    expect((await file('/workspace/shot.png')).headers.get('content-type')).toBe('image/png');
    // A symlink that stays inside the workspace is followed.
    expect(await (await file('/workspace/captions.vtt')).text()).toMatch(/^WEBVTT/);
  });

  it('never runs a workspace page as the control plane: sandboxed, not sniffed', async () => {
    const html = await file('/workspace/page.html');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers a Range request with 206 and exactly those bytes, so a video seeks', async () => {
    const part = await file('/workspace/recordings/demo.mp4', { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${video.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(1000, 2000))).toBe(true);
    const tail = await file('/workspace/recordings/demo.mp4', { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(video.subarray(-10))).toBe(true);
    const past = await file('/workspace/recordings/demo.mp4', { range: 'bytes=999999-' });
    expect(past.status).toBe(416);
  });

  it.each([
    ['a traversal', '/workspace/../secret.txt'],
    ['a traversal in the middle', '/workspace/recordings/../../secret.txt'],
    ['a path outside /workspace', '/etc/passwd'],
    ['the workspace itself', '/workspace/'],
    ['a relative path', 'workspace/shot.png'],
    ['a NUL', '/workspace/shot.png\0.txt'],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_what, boxPath) => {
    const res = await file(boxPath);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('VALIDATION_FAILED');
    expect(body.message).not.toContain(api.dataDir);
  });

  it.each([
    ['a symlink to a host file that exists', '/workspace/escape.txt'],
    ['a symlink to a host folder that exists', '/workspace/etc/passwd'],
    ['a symlink to the host folder itself', '/workspace/etc'],
  ])('answers %s exactly as a missing file: it tells nothing of the host', async (_w, boxPath) => {
    const answer = async (p: string) => {
      const res = await file(p);
      const body = (await res.json()) as { message: string };
      return { status: res.status, body: { ...body, message: body.message.replace(p, '<path>') } };
    };
    const outside = await answer(boxPath);
    const missing = await answer('/workspace/no-such-file.txt');
    expect(outside).toEqual(missing);
    expect(outside.status).toBe(404);
    expect(JSON.stringify(outside)).not.toContain(api.dataDir);
  });

  it('refuses a request without a path, and answers 404 for a missing file or session', async () => {
    const none = await fetch(`${api.url}/api/sessions/${id}/files`, { headers: api.authHeaders });
    expect(none.status).toBe(400);
    expect((await file('/workspace/nope.mp4')).status).toBe(404);
    expect((await file('/workspace/recordings')).status).toBe(404);
    const other = await fetch(
      `${api.url}/api/sessions/00000000-0000-4000-8000-000000000000/files?path=/workspace/shot.png`,
      { headers: api.authHeaders },
    );
    expect(other.status).toBe(404);
  });

  describe('folders, for the Files pane', () => {
    const dir = async (boxPath?: string) => {
      const query = boxPath === undefined ? '' : `?path=${encodeURIComponent(boxPath)}`;
      const res = await fetch(`${api.url}/api/sessions/${id}/dirs${query}`, {
        headers: api.authHeaders,
      });
      return { status: res.status, body: (await res.json()) as any };
    };

    it('lists the workspace, folders first, links as links (never followed)', async () => {
      const root = await dir();
      expect(root.status).toBe(200);
      expect(root.body.path).toBe('/workspace');
      expect(root.body.more).toBe(0);
      expect(root.body.entries).toEqual([
        { name: 'recordings', kind: 'dir', size: null },
        { name: 'captions.vtt', kind: 'link', size: null },
        { name: 'escape.txt', kind: 'link', size: null },
        { name: 'etc', kind: 'link', size: null },
        { name: 'page.html', kind: 'file', size: 25 },
        { name: 'shot.png', kind: 'file', size: 12 },
      ]);
      const sub = await dir('/workspace/recordings/');
      expect(sub.body.path).toBe('/workspace/recordings');
      expect(sub.body.entries.map((e: any) => [e.name, e.size])).toEqual([
        ['demo.mp4', video.length],
        ['demo.vtt', 35],
      ]);
    });

    it('answers a symlink to a host folder exactly as a missing folder, and refuses a traversal', async () => {
      const outside = await dir('/workspace/etc');
      const missing = await dir('/workspace/nope');
      expect(outside.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(outside.body.message.replace('/workspace/etc', '<p>')).toBe(
        missing.body.message.replace('/workspace/nope', '<p>'),
      );
      expect(JSON.stringify(outside.body)).not.toContain(api.dataDir);
      for (const bad of ['/workspace/../', '/etc', 'workspace', '/workspace/a\0b']) {
        const res = await dir(bad);
        expect(`${bad}: ${res.status} ${res.body.error}`).toBe(`${bad}: 400 VALIDATION_FAILED`);
      }
      expect((await dir('/workspace/shot.png')).status).toBe(404);
    });
  });

  it('needs a signed-in person', async () => {
    const res = await fetch(
      `${api.url}/api/sessions/${id}/files?path=${encodeURIComponent('/workspace/shot.png')}`,
    );
    expect(res.status).toBe(401);
  });

  it("forks a new session from a snapshot: the snapshot's files, nested under its origin", async () => {
    const snap = await api.request('POST', `/api/sessions/${id}/snapshots`);
    expect(snap.status).toBe(201);
    // Changed after the snapshot: the fork must have the snapshot's version.
    fs.writeFileSync(path.join(workspace, 'shot.png'), 'changed later');
    const fork = await api.request(
      'POST',
      `/api/sessions/${id}/snapshots/${snap.body.id}/fork`,
      {},
    );
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({
      title: 'Files (fork)',
      forkedFrom: { sessionId: id, snapshotId: snap.body.id },
      childOf: { sessionId: id, title: 'Files' },
    });
    const forked = path.join(api.dataDir, 'boxes', fork.body.id, 'workspace');
    expect(fs.readFileSync(path.join(forked, 'recordings', 'demo.mp4')).equals(video)).toBe(true);
    expect(fs.readFileSync(path.join(forked, 'shot.png'), 'latin1')).toMatch(/^\x89PNG/);
    const sidebar = (await api.request('GET', '/api/sidebar')).body;
    const origin = sidebar.find((n: { id: string }) => n.id === id);
    expect(origin.children.map((c: { id: string }) => c.id)).toContain(fork.body.id);

    const named = await api.request('POST', `/api/sessions/${id}/snapshots/${snap.body.id}/fork`, {
      title: 'Try another way',
    });
    expect(named.body.title).toBe('Try another way');
    const missing = await api.request(
      'POST',
      `/api/sessions/${id}/snapshots/00000000-0000-4000-8000-000000000000/fork`,
      {},
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('NOT_FOUND');
    const bad = await api.request('POST', `/api/sessions/${id}/snapshots/${snap.body.id}/fork`, {
      title: '',
    });
    expect(bad.status).toBe(400);
  });

  it('lists no Terminals, and reading one that does not exist is 404', async () => {
    expect((await api.request('GET', `/api/sessions/${id}/terminals`)).body).toEqual([]);
    const read = await api.request('GET', `/api/sessions/${id}/terminals/t-1`);
    expect(read.status).toBe(404);
    expect(read.body.message).toMatch(/no Terminal t-1/);
    const other = await api.request(
      'GET',
      '/api/sessions/00000000-0000-4000-8000-000000000000/terminals',
    );
    expect(other.status).toBe(404);
  });
});
