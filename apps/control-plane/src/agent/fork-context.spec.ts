import type { TranscriptEntry } from '@sessionboxer/contracts';
import { FORK_ITEM_MAX, forkContext, priorTurns, type PriorTurn } from './fork-context';

const origin = { title: 'Five turns', turn: 3 };

function entry(conversationId: string, position: number, event: object): TranscriptEntry {
  return { kind: 'event', position, at: '2026-01-01T00:00:00Z', conversationId, event } as never;
}

describe("the context a fork's first prompt carries", () => {
  it('tells each turn, oldest first: the prompt and every reply, between a head and an end', () => {
    const text = forkContext(origin, [
      { prompt: 'Make a file', replies: ['Made it.', 'It is called a.txt.'] },
      { prompt: 'Now rename it', replies: ['Renamed to b.txt.'] },
    ]) as string;
    expect(text).toMatch(
      /^This session is a fork of the session “Five turns”, from the end of its turn 3/,
    );
    expect(text).toContain(
      '### Turn 1\nThe user: Make a file\nYou: Made it.\nYou: It is called a.txt.\n\n### Turn 2\nThe user: Now rename it\nYou: Renamed to b.txt.',
    );
    expect(text.endsWith('--- End of the earlier conversation. ---')).toBe(true);
    expect(text).not.toMatch(/left out here/);
  });

  it('says nothing when the origin had no turn', () => {
    expect(forkContext(origin, [])).toBeNull();
  });

  it('leaves the oldest turns out first when they do not fit, and says how many', () => {
    const turns: PriorTurn[] = Array.from({ length: 50 }, (_, i) => ({
      prompt: `prompt number ${i + 1} ${'x'.repeat(200)}`,
      replies: [`answer number ${i + 1}`],
    }));
    const text = forkContext(origin, turns, 5_000) as string;
    expect(text.length).toBeLessThanOrEqual(5_100);
    expect(text).toContain('answer number 50');
    expect(text).not.toContain('prompt number 1 ');
    const left = Number(/\[The first (\d+) turns are left out here/.exec(text)?.[1]);
    expect(left).toBeGreaterThan(0);
    expect(text).toContain(`### Turn ${left + 1}\n`);
    expect(text).not.toContain(`### Turn ${left}\n`);
  });

  it('cuts one long prompt in its middle, keeping how it began and how it ended', () => {
    const long = `BEGIN ${'y'.repeat(FORK_ITEM_MAX * 3)} END`;
    const text = forkContext(origin, [{ prompt: long, replies: [] }]) as string;
    expect(text).toContain('The user: BEGIN ');
    expect(text).toContain(' END');
    expect(text).toMatch(/\[… \d+ characters left out …\]/);
    expect(text.length).toBeLessThan(FORK_ITEM_MAX + 1_000);
  });

  it("reads the turns from transcript entries, each conversation's apart, tools and markers left out", () => {
    const entries: TranscriptEntry[] = [
      entry('a', 1, { type: 'prompt', turn: 1, text: 'first ask' }),
      entry('a', 2, { type: 'tool_call', turn: 1, id: 't', name: 'Bash', input: {} }),
      entry('a', 3, { type: 'message', turn: 1, text: 'first answer' }),
      { kind: 'marker', position: 4, at: '2026-01-01T00:00:00Z', marker: {} } as never,
      entry('b', 5, { type: 'prompt', turn: 1, text: 'in the fork' }),
      entry('a', 6, { type: 'message', turn: 1, text: 'late answer' }),
      entry('b', 7, { type: 'message', turn: 1, text: 'fork answer' }),
    ];
    expect(priorTurns(entries)).toEqual([
      { prompt: 'first ask', replies: ['first answer', 'late answer'] },
      { prompt: 'in the fork', replies: ['fork answer'] },
    ]);
  });
});
