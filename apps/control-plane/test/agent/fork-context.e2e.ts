import { waitFor, waitForBox } from '../box-kit';
import { say } from '../doubles/model-provider/model-provider-double';
import { turnFinished } from './agent-kit';
import { readySession, realKey, startRealAgentWorld, type RealAgentWorld } from './real-agent-kit';

const CLIS = [
  { provider: 'claude-code', name: 'Claude Code', keyTag: 'Fk7' },
  { provider: 'opencode', name: 'OpenCode', keyTag: 'Fo7' },
] as const;

/**
 * A fork from a turn, and a rewind to one, with the real CLIs against the model-provider
 * double: the fork's agent starts a new conversation of its own, yet its first model request
 * carries the origin's earlier prompts and answers up to the fork's turn and nothing after;
 * after a rewind the agent's next request carries the turns up to the rewind's only.
 */
describe.each(CLIS)(
  'the real $name continues the conversation a fork or rewind starts from',
  (cli) => {
    let world: RealAgentWorld;
    let id: string;
    const ask = (n: number) => `Turn ${n} of the origin: remember the word ASK-${n}-${cli.keyTag}.`;
    const answer = (n: number) => `I will remember ANSWER-${n}-${cli.keyTag}.`;
    const upTo1 = [`ASK-1-${cli.keyTag}`, `ANSWER-1-${cli.keyTag}`];
    const after1 = [`ASK-2-${cli.keyTag}`, `ANSWER-2-${cli.keyTag}`];
    const present = (words: string[]) => Object.fromEntries(words.map((w) => [w, true]));
    const absent = (words: string[]) => Object.fromEntries(words.map((w) => [w, false]));

    /** What the model double received for the main conversation from `from` on, as one text. */
    const sentSince = (from: number) =>
      JSON.stringify(
        world.double.requests
          .slice(from)
          .filter((r) => r.kind === 'main')
          .map((r) => r.body),
      );

    /** Which of `words` a text holds (a short failure, unlike the whole request body). */
    const holds = (text: string, words: string[]) =>
      Object.fromEntries(words.map((w) => [w, text.includes(w)]));

    async function prompt(sessionId: string, text: string, turn: number) {
      const sent = await world.api.request('POST', `/api/sessions/${sessionId}/prompts`, { text });
      expect(sent.status).toBe(202);
      expect((await turnFinished(world.api, sessionId, turn, 90_000)).status).toBe('finished');
    }

    async function turnSnapshot(sessionId: string, turn: number) {
      return waitFor(`turn ${turn}'s snapshot`, async () =>
        (await world.api.request('GET', `/api/sessions/${sessionId}/snapshots/turns`)).body.find(
          (s: any) => s.turn === turn,
        ),
      );
    }

    beforeAll(async () => {
      world = await startRealAgentWorld(realKey(cli.keyTag));
      id = await readySession(world.api, cli.provider, `${cli.name} remembers`);
      world.double.play([[say(answer(1))], [say(answer(2))], [say(answer(3))]]);
      await prompt(id, ask(1), 1);
      await prompt(id, ask(2), 2);
      await turnSnapshot(id, 2);
    }, 240_000);
    afterAll(() => world?.close());

    it("a fork from turn 1: its first request carries turn 1's prompt and answer, not turn 2's", async () => {
      const first = await turnSnapshot(id, 1);
      const forked = await world.api.request(
        'POST',
        `/api/sessions/${id}/snapshots/${first.id}/fork`,
        {},
      );
      expect(forked.status).toBe(201);
      await waitForBox(world.api, forked.body.id);
      const from = world.double.requests.length;
      await prompt(forked.body.id, `In the fork: which word? ${cli.keyTag}`, 1);
      const sent = sentSince(from);
      expect(holds(sent, [`In the fork: which word? ${cli.keyTag}`, ...upTo1, ...after1])).toEqual({
        [`In the fork: which word? ${cli.keyTag}`]: true,
        ...present(upTo1),
        ...absent(after1),
      });
      // A fork of the fork, from its first turn, carries both conversations, oldest first.
      const own = await turnSnapshot(forked.body.id, 1);
      const again = await world.api.request(
        'POST',
        `/api/sessions/${forked.body.id}/snapshots/${own.id}/fork`,
        {},
      );
      expect(again.status).toBe(201);
      await waitForBox(world.api, again.body.id);
      const next = world.double.requests.length;
      await prompt(again.body.id, `Two forks down ${cli.keyTag}`, 1);
      const deeper = sentSince(next);
      expect(holds(deeper, [...upTo1, ...after1])).toEqual({
        ...present(upTo1),
        ...absent(after1),
      });
      expect(deeper.indexOf('In the fork: which word?')).toBeGreaterThan(deeper.indexOf(upTo1[0]));
    }, 240_000);

    it("a rewind to turn 1: the agent's next request carries turn 1, not turn 2", async () => {
      const rewound = await world.api.request(
        'POST',
        `/api/sessions/${id}/snapshots/turns/1/revert`,
      );
      expect(rewound.status).toBe(201);
      const from = world.double.requests.length;
      await prompt(id, `After the rewind ${cli.keyTag}`, 3);
      const sent = sentSince(from);
      expect(holds(sent, [`After the rewind ${cli.keyTag}`, ...upTo1, ...after1])).toEqual({
        [`After the rewind ${cli.keyTag}`]: true,
        ...present(upTo1),
        ...absent(after1),
      });
    }, 240_000);
  },
);
