import * as fs from 'node:fs';
import fc from 'fast-check';
import { startApp, type RunningApp } from '../harness';
import {
  BODY_ROUTES,
  QUERY_ROUTES,
  answerProblem,
  headPosition,
  send,
  type Answer,
  type BodyRoute,
  type FieldKind,
} from './admin-routes';

/**
 * The admin API's lasting fuzz suite (issue 12): random and malformed bodies and queries for
 * every route that reads one, against the real app on 127.0.0.1 (SQLite, no boxes). Seeded,
 * so a failure repeats; bounded, so the file runs in well under a minute on two cores.
 * Every answer: no 5xx, errors `{statusCode, error, message}`, and refused input appends no
 * event; where one field is at fault the message names it.
 */
const SEED = 20261212;
let cases = 0;

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/merge-patch+json',
];

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

/** An object with `key` as an own property (plain assignment of `__proto__` would not be). */
function withKey(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(o);
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const deep = fc
  .tuple(fc.integer({ min: 65, max: 4000 }), fc.boolean())
  .map(([n, arrays]) =>
    arrays
      ? `{"title":"deep","x":${'['.repeat(n)}${']'.repeat(n)}}`
      : `{"title":"deep","x":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`,
  );

/** Text that is not what any route takes: broken, deep, huge, ill-formed or prototype-keyed. */
const malformed = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json({ maxDepth: 3 }).map((t) => t.slice(0, Math.max(1, t.length >> 1))),
  deep,
  fc.constantFrom(1_048_577, 1_400_000).map((n) => `{"title":"${'x'.repeat(n)}"}`),
  fc
    .constantFrom('\\ud800', '\\udfff', '\\ud83d', 'ok\\udc00')
    .map((s) => `{"title":"${s}","text":"${s}","value":"${s}","${s}":1}`),
  fc
    .tuple(fc.constantFrom(...PROTO_KEYS), fc.jsonValue({ maxDepth: 2 }))
    .map(([k, v]) => `{"title":"t","text":"t","${k}":${JSON.stringify(v) ?? 'null'}}`),
  fc.constantFrom('', 'null', '[]', '"a string"', '42', 'true', '{"a":1}{"b":2}', '\u0000'),
);

const randomJson = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null');

const lone = fc.constantFrom('x\ud800', '\udfff', 'a\ud83db');

/** A value the field's kind never takes. */
function wrongFor(kind: FieldKind): fc.Arbitrary<unknown> {
  const notText = fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }));
  switch (kind) {
    case 'text':
      return fc.oneof(notText, lone, fc.constant({}));
    case 'optional-text':
      return fc.oneof(notText, lone);
    case 'bool':
      return fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant([true]));
    case 'enum':
      return fc.oneof(
        fc.string().map((s) => `not-${s}`),
        fc.integer(),
        lone,
      );
    case 'object':
      return fc.oneof(fc.string(), fc.boolean(), fc.constant([1, 2]));
  }
}

function setPath(
  base: Record<string, unknown>,
  path: string,
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return withKey(base, head, value);
  const inner = (base[head] as Record<string, unknown> | undefined) ?? {};
  return withKey(base, head, setPath(inner, rest.join('.'), value));
}

/** One field of a body the route takes made wrong, or one unknown key added. */
// Only routes that read a body of known fields (sign-in, the webhook and the bodiless ones do not).
const TYPED = BODY_ROUTES.filter((r) => Object.keys(r.fields).length > 0);
const oneWrongField = fc.constantFrom(...TYPED).chain((route) => {
  const fields = Object.entries(route.fields);
  const extraKey = fc
    .oneof(
      fc.constantFrom(...PROTO_KEYS, 'isAdmin', 'sessionId'),
      fc.stringMatching(/^z[a-z]{1,8}$/),
    )
    .chain((key) =>
      fc.jsonValue({ maxDepth: 1 }).map((v) => ({ field: key, body: withKey(route.base, key, v) })),
    );
  const wrong =
    fields.length === 0
      ? extraKey
      : fc.oneof(
          extraKey,
          fc
            .constantFrom(...fields)
            .chain(([field, kind]) =>
              wrongFor(kind).map((v) => ({ field, body: setPath(route.base, field, v) })),
            ),
        );
  return wrong.map((w) => ({ route, ...w }));
});

describe('admin API fuzz: random and malformed input on every route', () => {
  let api: RunningApp;
  let id: string;
  beforeAll(async () => {
    api = await startApp();
    id = (await api.request('POST', '/api/sessions', { title: 'Fuzz target' })).body.id as string;
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
    console.log(`admin API fuzz: ${cases} cases`);
  });

  /** The rules every answer keeps; a refusal must also have appended nothing. */
  async function check(answer: Answer, before: number, what: string): Promise<void> {
    cases += 1;
    const problem = answerProblem(answer);
    if (problem) throw new Error(`${what}: ${problem}`);
    if (answer.status >= 400 && (await headPosition(api)) !== before)
      throw new Error(`${what}: refused with ${answer.status} but appended events`);
  }

  const call = async (route: BodyRoute, text: string | undefined, type?: string) => {
    const before = await headPosition(api);
    const what = `${route.method} ${route.path} ${type ?? ''} ${(text ?? '').slice(0, 120)}`;
    await check(await send(api, route, id, text, type), before, what);
  };

  it('answers random JSON values and malformed texts, of any content type, with no 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...BODY_ROUTES),
        fc.oneof(randomJson, malformed),
        fc.constantFrom(...CONTENT_TYPES),
        (route, text, type) => call(route, text, type),
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('answers one wrong field with a 400 that names it, appending nothing', async () => {
    await fc.assert(
      fc.asyncProperty(oneWrongField, async ({ route, field, body }) => {
        const before = await headPosition(api);
        const answer = await send(api, route, id, JSON.stringify(body));
        await check(answer, before, `${route.method} ${route.path} ${JSON.stringify(body)}`);
        const message = (answer.body as { message?: string }).message ?? '';
        if (answer.status !== 400 || !message.includes(field.split('.').pop() as string))
          throw new Error(`${route.path} ${JSON.stringify(body)}: ${answer.status} ${message}`);
      }),
      { seed: SEED + 1, numRuns: 1500 },
    );
  });

  it('answers random queries on every route that reads one, changing nothing', async () => {
    const value = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.integer().map(String),
      fc.constantFrom('-1', '1e309', '0x10', 'NaN', '', '/workspace/../x', '/workspace/%00'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...QUERY_ROUTES),
        fc.array(
          fc.tuple(
            fc.oneof(
              fc.constantFrom(
                'from',
                'limit',
                'after',
                'path',
                'lines',
                'direction',
                'position',
                'time',
                '__proto__',
                'constructor',
              ),
              fc.string({ maxLength: 6 }),
            ),
            value,
          ),
          { maxLength: 4 },
        ),
        fc.constantFrom('', '&%E0%A4%A', '&a=%ZZ', '&limit=1&limit=2'),
        async (route, pairs, tail) => {
          const query = new URLSearchParams(pairs).toString() + tail;
          const target = { method: 'GET', path: `${route.path}?${query}` };
          const before = await headPosition(api);
          await check(await send(api, target, id, undefined), before, `GET ${target.path}`);
        },
      ),
      { seed: SEED + 2, numRuns: 1000 },
    );
  });
});
