/**
 * A session's redacted audit bundle over a real store file: the credentials its agent handled
 * are nowhere in it, nor the other sessions' events, and it still verifies with the public
 * key alone; a hidden value put back wrong, a digest changed or dropped, a segment moved, the
 * manifest's scope changed: each fails.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BundleVerifier,
  CHECKPOINT_STREAM,
  CHECKPOINT_TYPE,
  exportBundle,
  signCheckpoint,
  type AuditKey,
  type BundleReport,
  type CheckpointData,
} from '@sessionboxer/event-store/chain';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { maskSecrets } from '../settings/credentials/secret-masker';
import { exportRedaction, sessionSelection } from './export-scope';

const TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const ENV_KEY = 'plain-looking-env-value';
const VAULT = 'correct horse battery staple';
const META = 'hunter2-in-metadata';
const PRIVATE_OF_B = 'words only session B said';

const key: AuditKey = generateKeyPairSync('ed25519');
const [A, B, C] = [randomUUID(), randomUUID(), randomUUID()];
const [convA, convB] = [randomUUID(), randomUUID()];
let dir: string;
let store: SqliteEventStore;

async function put(stream: string, type: string, data: object, meta: object = {}): Promise<void> {
  const at = new Date().toISOString();
  const id = randomUUID();
  const actor = { kind: 'system', id: 'test' } as const;
  const ids = { commandId: id, correlationId: id, causationId: id };
  const metadata = { ...ids, actor, at, ...meta };
  await store.appendToStream(stream, [{ id, type, data, metadata }]);
  const head = await store.chainHead();
  if (head && head.position % 5 === 0 && head.hash) {
    const signed = signCheckpoint(key.privateKey, key.publicKey, head.position, head.hash);
    const e = { id: randomUUID(), type: CHECKPOINT_TYPE, data: signed, metadata };
    await store.appendToStream(CHECKPOINT_STREAM, [e]);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-export-'));
  store = SqliteEventStore.open({ path: join(dir, 'events.sqlite') });
  await put(`session-${A}`, 'SessionCreated', { sessionId: A, title: 'A', createdBy: null });
  await put(`session-${B}`, 'SessionCreated', { sessionId: B, title: 'B', createdBy: null });
  const owner = (sessionId: string) => ({ kind: 'session', sessionId });
  await put(`conversation-${convA}`, 'ConversationStarted', {
    conversationId: convA,
    owner: owner(A),
  });
  await put(`conversation-${convB}`, 'ConversationStarted', {
    conversationId: convB,
    owner: owner(B),
  });
  const call = (conversationId: string, input: object) => ({
    conversationId,
    id: randomUUID(),
    name: 'Bash',
    input,
  });
  await put(
    `conversation-${convA}`,
    'AgentToolCalled',
    call(convA, { command: `curl -H "Authorization: Bearer ${TOKEN}" https://api.github.com` }),
  );
  await put(`conversation-${convB}`, 'AgentMessaged', {
    conversationId: convB,
    text: PRIVATE_OF_B,
  });
  await put(`conversation-${convA}`, 'AgentToolCalled', call(convA, { env: { GH: ENV_KEY } }));
  await put(`conversation-${convA}`, 'AgentToolReturned', {
    conversationId: convA,
    id: 'x',
    output: `the passphrase is ${VAULT}, keep it`,
    error: false,
  });
  await put(`session-${A}`, 'SessionTitleSet', { sessionId: A, title: 'A2' }, { token: META });
  await put(`session-${A}`, 'NotificationSent', { sessionId: A, labels: { [VAULT]: 'a key' } });
  await put(`session-${C}`, 'SessionCreated', {
    sessionId: C,
    title: 'C',
    createdBy: { sessionId: A },
  });
  for (let i = 0; i < 7; i++) {
    await put(`session-${B}`, 'SessionTitleSet', { sessionId: B, title: `B${i}` });
  }
  await put(`session-${A}`, 'SessionTitleSet', { sessionId: A, title: 'A3' });
  // Others' events after A's last, with a checkpoint covering it between: the bundle ends there.
  for (let i = 0; i < 5; i++) {
    await put(`session-${B}`, 'SessionTitleSet', { sessionId: B, title: `later ${i}` });
  }
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function bundle(
  session: string | null,
  options: { redact?: boolean; family?: boolean; withoutKey?: boolean } = {},
): Promise<string[]> {
  const lines: string[] = [];
  const [last] = await store.readStream(CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
  await exportBundle(
    store,
    options.withoutKey ? null : key,
    options.withoutKey ? (last.data as CheckpointData) : null,
    (line) => {
      lines.push(line.trimEnd());
      return Promise.resolve();
    },
    {
      scope: { session, family: !!options.family, redacted: !!options.redact },
      select: session ? sessionSelection(session, !!options.family) : undefined,
      redact: options.redact ? exportRedaction((v) => maskSecrets(v, [VAULT])) : undefined,
    },
  );
  return lines;
}

function verify(lines: string[], publicKey = key.publicKey): BundleReport {
  const v = new BundleVerifier(publicKey);
  for (const line of lines) if (!v.add(line)) break;
  return v.result();
}

const secrets = [TOKEN, ENV_KEY, VAULT, META];

describe("a session's audit bundle", () => {
  it('unredacted, holds what the agent handled (the check below can fail) and verifies', async () => {
    const lines = await bundle(A);
    const text = lines.join('\n');
    for (const s of secrets) expect(text).toContain(s);
    expect(text).not.toContain(PRIVATE_OF_B);
    expect(verify(lines)).toMatchObject({ problem: null, bundleProblem: null, scopeSigned: true });
  });

  it('redacted, holds no credential anywhere and still verifies with the public key alone', async () => {
    const lines = await bundle(A, { redact: true });
    const text = lines.join('\n');
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).not.toContain(PRIVATE_OF_B);
    expect(text).not.toContain(`session-${C}`);
    const r = verify(lines);
    expect(r).toMatchObject({ problem: null, bundleProblem: null, scopeSigned: true });
    expect(r.scope).toEqual({ session: A, family: false, redacted: true });
    // The Bearer command, the env value, the passphrase's output, and the metadata with a token
    // twice (its event's, and the checkpoint's after it, which copied it).
    expect(r.hiddenValues).toBe(5);
    expect(r.leftOut).toBeGreaterThan(0);
  });

  it('exported without the key (the last checkpoint as its head), still verifies, its scope only stated', async () => {
    const lines = await bundle(A, { redact: true, withoutKey: true });
    for (const s of secrets) expect(lines.join('\n')).not.toContain(s);
    expect(verify(lines)).toMatchObject({ problem: null, bundleProblem: null, scopeSigned: false });
  });

  it('with its family holds the sessions it created, and verifies', async () => {
    const lines = await bundle(A, { redact: true, family: true });
    expect(lines.join('\n')).toContain(`session-${C}`);
    expect(verify(lines)).toMatchObject({ problem: null, bundleProblem: null });
  });

  it('the whole history, redacted, verifies too', async () => {
    const lines = await bundle(null, { redact: true });
    for (const s of secrets) expect(lines.join('\n')).not.toContain(s);
    expect(verify(lines)).toMatchObject({ problem: null, bundleProblem: null, leftOut: 1 });
  });

  it('fails when a hidden value is put back wrong; put back right it proves the chain, not the export', async () => {
    const redacted = await bundle(A, { redact: true });
    const whole = await bundle(A);
    const i = redacted.findIndex((l) => l.includes('AgentToolCalled') && l.includes('"hidden"'));
    const line = JSON.parse(redacted[i]) as Record<string, any>;
    const original = JSON.parse(whole.find((l) => l.includes(`"position":${line.position},`))!);
    const putBack = (value: string, salts: string) => {
      const { hidden: _h, ...rest } = line;
      const data = JSON.parse(line.data as string);
      data.input.command = value;
      return [
        ...redacted.slice(0, i),
        JSON.stringify({ ...rest, data: JSON.stringify(data), salts }),
        ...redacted.slice(i + 1),
      ];
    };
    const wrong = putBack('curl https://api.github.com', original.salts);
    expect(verify(wrong).problem).toMatchObject({ kind: 'hash mismatch', position: line.position });
    const guessedSalt = putBack(JSON.parse(original.data).input.command, line.salts);
    expect(verify(guessedSalt).problem).toMatchObject({ kind: 'hash mismatch' });
    const right = putBack(JSON.parse(original.data).input.command, original.salts);
    const r = verify(right);
    expect(r.problem).toBeNull();
    expect(r.bundleProblem).toMatch(/manifest signature does not match/);
  });

  it('fails when a digest is changed or dropped, a segment moved, or the manifest rescoped', async () => {
    const lines = await bundle(A, { redact: true });
    const d = lines.findIndex((l) => l.includes('"digest"'));
    const digest = JSON.parse(lines[d]) as { position: number; digest: string };
    const flipped = {
      ...digest,
      digest: `${digest.digest[0] === 'a' ? 'b' : 'a'}${digest.digest.slice(1)}`,
    };
    const changed = lines.map((l, i) => (i === d ? JSON.stringify(flipped) : l));
    expect(verify(changed).problem).not.toBeNull();
    const dropped = lines.filter((_, i) => i !== d);
    expect(verify(dropped).problem).toMatchObject({ kind: 'gap in positions' });

    const s = lines.findIndex((l) => l.startsWith('{"segment"'));
    expect(s).toBeGreaterThanOrEqual(0);
    const seg = JSON.parse(lines[s]) as { segment: number; prev: string };
    const moved = lines.map((l, i) =>
      i === s ? JSON.stringify({ ...seg, prev: '0'.repeat(64) }) : l,
    );
    expect(verify(moved).problem).toMatchObject({ kind: 'hash mismatch', position: seg.segment });

    const manifest = JSON.parse(lines[lines.length - 1]) as Record<string, any>;
    const rescoped = [
      ...lines.slice(0, -1),
      JSON.stringify({ ...manifest, scope: { ...manifest.scope, session: B } }),
    ];
    expect(verify(rescoped).bundleProblem).toMatch(/manifest signature does not match/);
    expect(verify(lines, generateKeyPairSync('ed25519').publicKey).problem).toMatchObject({
      kind: 'bad signature',
    });
  });
});
