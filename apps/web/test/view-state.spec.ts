import fc from 'fast-check';
import type { TranscriptEntry } from '@sessionboxer/contracts';
import { turnRunning } from '../src/view-state';

const KINDS = ['prompt', 'turn_finished', 'assistant_message', 'marker'] as const;

function entry(kind: (typeof KINDS)[number], position: number): TranscriptEntry {
  if (kind === 'marker') {
    return { kind: 'marker', position, marker: { kind: 'renamed' } } as unknown as TranscriptEntry;
  }
  return { kind: 'event', position, event: { type: kind } } as unknown as TranscriptEntry;
}

/** The rule as the transcript states it: a prompt with no turn_finished after it. */
function promptWithoutEnd(entries: TranscriptEntry[]): boolean {
  const types = entries.flatMap((e) => (e.kind === 'event' ? [e.event.type] : []));
  const lastPrompt = types.lastIndexOf('prompt');
  return lastPrompt >= 0 && !types.slice(lastPrompt).includes('turn_finished');
}

describe('turnRunning', () => {
  it('is a prompt with no turn_finished after it, for any transcript', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...KINDS), { maxLength: 40 }), (kinds) => {
        const entries = kinds.map((k, i) => entry(k, i + 1));
        expect(turnRunning(entries)).toBe(promptWithoutEnd(entries));
      }),
    );
  });

  it('answers from the newest entries', () => {
    const entries = [entry('prompt', 1), entry('turn_finished', 2), entry('prompt', 3)];
    expect(turnRunning(entries)).toBe(true);
    expect(turnRunning([...entries, entry('marker', 4), entry('turn_finished', 5)])).toBe(false);
    expect(turnRunning([])).toBe(false);
  });
});
