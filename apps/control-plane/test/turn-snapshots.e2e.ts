import * as fs from 'node:fs';
import * as path from 'node:path';
import { boxPaths } from '../src/boxes';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';
import { conversation, script, transcript, turnFinished } from './agent/agent-kit';

/** What the control plane itself writes into a workspace (each box gets its own). */
const MANAGED = new Set(['.mcp.json', '.sessionboxer']);

/** Every file of a workspace but the managed ones, path → content ('→ target' for a link). */
function files(workspace: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      if (!rel && MANAGED.has(name)) continue;
      const full = path.join(dir, name);
      const key = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(full);
      if (st.isSymbolicLink()) out[key] = `→ ${fs.readlinkSync(full)}`;
      else if (st.isDirectory()) walk(full, key);
      else out[key] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(workspace, '');
  return out;
}

function blobCount(dataDir: string): number {
  const root = path.join(dataDir, 'snapshot-blobs');
  if (!fs.existsSync(root)) return 0;
  return fs
    .readdirSync(root)
    .filter((d) => d.length === 2)
    .reduce((n, d) => n + fs.readdirSync(path.join(root, d)).length, 0);
}

/**
 * The issue's proof of forks from any turn: a scripted session of 5 turns, each changing a
 * few files; every turn's end takes a content-addressed snapshot by itself; a fork from turn 3
 * has turn 3's files and a transcript that ends with turn 3; session_fork { turn } and a
 * rewind do the same from inside and in place; and the timeline shows it all in order.
 */
describe('forks from any turn, in real boxes', () => {
  let api: RunningApp;
  let id: string;
  let workspace: string;
  const atTurn: Record<string, string>[] = [];
  const blobsAfter: number[] = [];

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    const created = await api.request('POST', '/api/sessions', {
      title: 'Five turns',
      provider: 'scripted',
    });
    id = created.body.id;
    workspace = boxPaths(api.dataDir, id).workspace;
    await waitForBox(api, id);
    // A tree the turns leave alone, so each snapshot has more files than a turn changes.
    fs.mkdirSync(path.join(workspace, 'src/lib'), { recursive: true });
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(workspace, `src/lib/m${i}.ts`), `${i}`);
    fs.symlinkSync('src/lib/m1.ts', path.join(workspace, 'link.ts'));
    for (let turn = 1; turn <= 5; turn++) {
      // What the agent did in this turn: one new file, one changed, one removed after turn 2.
      fs.writeFileSync(path.join(workspace, `turn-${turn}.txt`), `made in turn ${turn}`);
      fs.writeFileSync(path.join(workspace, 'notes.md'), `notes as of turn ${turn}\n`);
      if (turn === 3) fs.rmSync(path.join(workspace, 'turn-1.txt'));
      const sent = await api.request('POST', `/api/sessions/${id}/prompts`, {
        text: script({ say: `Turn ${turn} done.` }),
      });
      expect(sent.status).toBe(202);
      await turnFinished(api, id, turn);
      await waitFor(`turn ${turn}'s snapshot`, async () =>
        (await api.request('GET', `/api/sessions/${id}/snapshots/turns`)).body.find(
          (s: any) => s.turn === turn,
        ),
      );
      atTurn[turn] = files(workspace);
      blobsAfter[turn] = blobCount(api.dataDir);
    }
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('takes one snapshot per turn by itself, and a later turn stores only what it changed', async () => {
    const turns = (await api.request('GET', `/api/sessions/${id}/snapshots/turns`)).body;
    expect(turns.map((s: any) => s.turn)).toEqual([1, 2, 3, 4, 5]);
    // Turn 1 stores the whole tree; each later one its new and changed files (and at most the
    // session file the control plane rewrites), never the 20 unchanged ones again.
    expect(blobsAfter[1]).toBeGreaterThanOrEqual(22);
    for (const turn of [2, 3, 4, 5]) {
      expect(blobsAfter[turn] - blobsAfter[turn - 1]).toBeLessThanOrEqual(3);
      expect(turns[turn - 1].newBytes).toBeLessThan(turns[0].newBytes);
    }
    // Explicit snapshots keep their numbers: none was taken, so there is no Snapshot 1.
    expect((await api.request('GET', `/api/sessions/${id}/snapshots`)).body).toEqual([]);
  });

  it("forks from turn 3 of 5: the fork's files are turn 3's, its transcript ends at turn 3", async () => {
    const turns = (await api.request('GET', `/api/sessions/${id}/snapshots/turns`)).body;
    const third = turns.find((s: any) => s.turn === 3);
    const forked = await api.request('POST', `/api/sessions/${id}/snapshots/${third.id}/fork`, {});
    expect(forked.status).toBe(201);
    const fork = forked.body.id;
    expect(forked.body.forkedFrom).toEqual({ sessionId: id, snapshotId: third.id });
    expect(files(boxPaths(api.dataDir, fork).workspace)).toEqual(atTurn[3]);
    expect(atTurn[3]).not.toEqual(atTurn[5]);

    const events = (await transcript(api, fork)).filter((e) => e.kind === 'event');
    const prompts = events.filter((e) => e.event?.type === 'prompt').map((e) => e.event?.turn);
    expect(prompts).toEqual([1, 2, 3]);
    expect(events.at(-1)?.event).toMatchObject({ type: 'turn_finished', turn: 3 });
    // The source's own transcript is whole.
    const source = (await transcript(api, id)).filter((e) => e.event?.type === 'prompt');
    expect(source).toHaveLength(5);
  });

  it('session_fork { turn: 2 } forks from inside, from the snapshot of turn 2', async () => {
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({ call: 'sessionboxer.session_fork', args: { turn: 2 } }),
    });
    await turnFinished(api, id, 6);
    const results = (await conversation(api, id)).events.filter(
      (e: any) => e.type === 'tool_result' && e.turn === 6,
    );
    expect(results[0].error).toBe(false);
    const answer = JSON.parse(results[0].output);
    expect(answer).toMatchObject({ pending: false, snapshotOrdinal: null });
    expect(files(boxPaths(api.dataDir, answer.sessionId).workspace)).toEqual(atTurn[2]);
    const prompts = (await transcript(api, answer.sessionId)).filter(
      (e) => e.event?.type === 'prompt',
    );
    expect(prompts.map((e) => e.event?.turn)).toEqual([1, 2]);
  });

  it("a fork's first prompt tells its agent the turns it continues, and no later one", async () => {
    const turns = (await api.request('GET', `/api/sessions/${id}/snapshots/turns`)).body;
    const second = turns.find((s: any) => s.turn === 2);
    const fork = (await api.request('POST', `/api/sessions/${id}/snapshots/${second.id}/fork`, {}))
      .body.id;
    await waitForBox(api, fork);
    await api.request('POST', `/api/sessions/${fork}/prompts`, {
      text: script({ say: 'First of the fork.' }),
    });
    await turnFinished(api, fork, 1);
    const prompt = (await conversation(api, fork)).events.find((e: any) => e.type === 'prompt');
    const told: string = prompt.briefing;
    expect(told).toMatch(
      /This session is a fork of the session “Five turns”, from the end of its turn 2/,
    );
    expect(told.indexOf('You: Turn 1 done.')).toBeGreaterThan(-1);
    expect(told.indexOf('You: Turn 2 done.')).toBeGreaterThan(told.indexOf('You: Turn 1 done.'));
    expect(told).not.toContain('Turn 3 done.');
    // Its second turn is told nothing more: the agent has it all by then.
    await api.request('POST', `/api/sessions/${fork}/prompts`, { text: script({ say: 'Again.' }) });
    await turnFinished(api, fork, 2);
    const prompts = (await conversation(api, fork)).events.filter((e: any) => e.type === 'prompt');
    expect(prompts[1].briefing).toBeNull();
  });

  it('refuses a turn without a snapshot, saying which turns have one', async () => {
    const refused = await api.request('POST', `/api/sessions/${id}/snapshots/turns/40/revert`);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toMatch(/no snapshot of turn 40 \(turns with one: 1, 2, 3, 4, 5/);
    const bad = await api.request('POST', `/api/sessions/${id}/snapshots/turns/two/revert`);
    expect(bad.status).toBe(400);
  });

  it('rewinds the workspace to turn 2 in place', async () => {
    const rewound = await api.request('POST', `/api/sessions/${id}/snapshots/turns/2/revert`);
    expect(rewound.status).toBe(201);
    expect(rewound.body.turn).toBe(2);
    expect(files(workspace)).toEqual(atTurn[2]);
  });

  it('shows turns, snapshots and the box in one timeline, filtered by kind and actor', async () => {
    const all = (await api.request('GET', `/api/sessions/${id}/timeline?limit=1000`)).body;
    const positions = all.entries.map((e: any) => e.position);
    expect(positions).toEqual([...positions].sort((a: number, b: number) => a - b));
    const kinds = new Set(all.entries.map((e: any) => e.kind));
    for (const k of ['command', 'turn', 'tool_call', 'snapshot', 'box']) expect(kinds).toContain(k);

    const snaps = (await api.request('GET', `/api/sessions/${id}/timeline?kinds=snapshot`)).body;
    expect(snaps.entries.map((e: any) => [e.type, e.turn])).toEqual([
      ...[1, 2, 3, 4, 5, 6].map((t) => ['TurnSnapshotTaken', t]),
      ['SessionRewound', 2],
    ]);
    expect(snaps.entries[0]).toMatchObject({
      actor: { kind: 'system', id: 'turn-snapshots' },
      link: { pane: 'snapshots' },
    });
    const mine = (await api.request('GET', `/api/sessions/${id}/timeline?kinds=turn&actor=person`))
      .body;
    expect(mine.entries.map((e: any) => e.type)).toEqual(Array(6).fill('TurnStarted'));

    const page = (await api.request('GET', `/api/sessions/${id}/timeline?kinds=snapshot&limit=2`))
      .body;
    expect(page.entries).toHaveLength(2);
    const rest = await api.request(
      'GET',
      `/api/sessions/${id}/timeline?kinds=snapshot&after=${page.next}&limit=10`,
    );
    expect(rest.body.entries[0].turn).toBe(3);

    const unknown = await api.request('GET', `/api/sessions/${id}/timeline?kinds=turn,nope`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/unknown "nope"/);
    const actor = await api.request('GET', `/api/sessions/${id}/timeline?actor=robot`);
    expect(actor.status).toBe(400);
    const missing = await api.request('GET', `/api/sessions/${'0'.repeat(36)}/timeline`);
    expect(missing.status).toBe(404);
  });
});
