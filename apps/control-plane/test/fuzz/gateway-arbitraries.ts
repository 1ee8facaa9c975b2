import fc from 'fast-check';

/** One frame as written to the socket: an `{ event, data }` envelope, or raw text / bytes. */
export type FuzzFrame =
  | { kind: 'frame'; event: string; data: unknown }
  | { kind: 'raw'; payload: string | Uint8Array; what: string };

/** Anything JSON can carry, or near misses of it (undefined fields vanish, NaN becomes null). */
const junk = fc.oneof(
  fc.anything({ maxDepth: 3, maxKeys: 5, withNullPrototype: true }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', '__proto__', 'constructor', -1, 0, 1e308, true),
);
const text = (max: number) => fc.oneof(fc.string({ maxLength: max }), fc.constant('x'.repeat(max)));
/** Mostly the right kind of value, so that many frames get past their schema to the state rules. */
const maybe = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: value }, junk);
const partial = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record(model) },
    { weight: 2, arbitrary: fc.record(model, { requiredKeys: [] }) },
    { weight: 1, arbitrary: junk },
  );

const output = fc.oneof(
  fc.record({ type: fc.constant('message'), text: text(200) }),
  fc.record({ type: fc.constant('turn_finished'), status: fc.constantFrom('completed', 'failed') }),
  fc.record({
    type: fc.constantFrom('tool_call', 'tool_result', 'error', 'turn_finished', 'harness_session'),
  }),
  fc.dictionary(fc.string({ maxLength: 10 }), junk, { maxKeys: 4 }),
);

/** Data for each frame type the gateway subscribes to: mostly near-valid, with every field at risk. */
function framesFor(sessionId: string): Record<string, fc.Arbitrary<unknown>> {
  const id = fc.oneof(fc.constant(sessionId), fc.uuid(), text(300));
  return {
    call: partial({
      callId: maybe(fc.string({ minLength: 8, maxLength: 120 })),
      route: maybe(fc.constantFrom('sessionboxer', 'e2e', 'desktop', 'admin')),
      tool: maybe(fc.constantFrom('whoami', 'settings_get', 'recording_finished', 'rm_rf', '')),
      args: maybe(fc.dictionary(fc.string({ maxLength: 12 }), junk, { maxKeys: 5 })),
    }),
    hello: partial({
      daemonVersion: maybe(text(60)),
      terminals: maybe(fc.array(text(20), { maxLength: 5 })),
      turns: maybe(
        fc.array(fc.record({ conversationId: id, turn: maybe(fc.integer()) }), { maxLength: 4 }),
      ),
    }),
    'agent.output': partial({
      conversationId: maybe(id),
      turn: maybe(fc.integer({ min: -1, max: 3 })),
      fromIndex: maybe(fc.integer({ min: -1, max: 20 })),
      outputs: maybe(fc.array(output, { maxLength: 6 })),
    }),
    'terminal.opened': partial({
      terminalId: maybe(text(120)),
      command: maybe(fc.array(text(30), { maxLength: 4 })),
      createdAt: maybe(fc.string({ maxLength: 30 })),
    }),
    'terminal.exited': partial({
      terminalId: maybe(text(120)),
      exitCode: maybe(fc.oneof(fc.integer(), fc.double())),
    }),
    'terminal.output': partial({
      terminalId: maybe(text(120)),
      offset: maybe(fc.oneof(fc.integer(), fc.double())),
      data: maybe(fc.oneof(fc.base64String({ maxLength: 200 }), fc.string({ maxLength: 200 }))),
    }),
    'terminal.answer': partial({
      requestId: maybe(text(120)),
      ok: maybe(fc.boolean()),
      result: junk,
      error: maybe(fc.record({ code: text(20), message: text(50) })),
    }),
  };
}

export const SUBSCRIBED = [
  'call',
  'hello',
  'agent.output',
  'terminal.opened',
  'terminal.exited',
  'terminal.output',
  'terminal.answer',
];

/** Frames of one subscribed type. */
export function typedFrames(sessionId: string, event: string): fc.Arbitrary<FuzzFrame> {
  return framesFor(sessionId)[event].map((data) => ({ kind: 'frame' as const, event, data }));
}

/** Envelopes with event names no handler takes, and envelopes that are not envelopes. */
export const strangeEnvelopes: fc.Arbitrary<FuzzFrame> = fc.oneof(
  fc
    .record({
      event: fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('result', 'agent.ack', 'session', 'turn.start', '__proto__', 'toString'),
      ),
      data: junk,
    })
    .filter((f) => !SUBSCRIBED.includes(f.event))
    .map((f) => ({ kind: 'frame' as const, ...f })),
  junk.map((value) => ({
    kind: 'raw' as const,
    payload: JSON.stringify(value) ?? 'undefined',
    what: 'not an envelope',
  })),
);

/** Text that is not JSON, bytes, nesting past any limit, and frames on both sides of the 1 MiB limit. */
export const rawFrames: fc.Arbitrary<FuzzFrame> = fc.oneof(
  fc.string({ maxLength: 200 }).map((payload) => ({ kind: 'raw' as const, payload, what: 'text' })),
  fc
    .uint8Array({ maxLength: 200 })
    .map((payload) => ({ kind: 'raw' as const, payload, what: 'bytes' })),
  fc
    .tuple(fc.constantFrom(...SUBSCRIBED), fc.integer({ min: 1, max: 20_000 }), fc.boolean())
    .map(([event, depth, arrays]) => ({
      kind: 'raw' as const,
      what: `${depth} levels deep`,
      payload: `{"event":"${event}","data":${arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)}}`,
    })),
  fc
    .tuple(fc.constantFrom(...SUBSCRIBED), fc.integer({ min: 100_000, max: 1_500_000 }))
    .map(([event, size]) => ({
      kind: 'frame' as const,
      event,
      data: { conversationId: 'x', terminalId: 'y', requestId: 'z', padding: 'p'.repeat(size) },
    })),
);
