import { z } from 'zod';

/**
 * The scripted harness's script format. A prompt is a script when its trimmed text is a JSON
 * object with a "script" key; its value is an array of steps, each an object with exactly one
 * of the keys below (a call may add "args"; its strings and a fail message may hold ${env:NAME}). Any other
 * prompt runs the demo.
 */
export type Step =
  | { kind: 'say'; text: string }
  | { kind: 'call'; server: string; tool: string; args: Record<string, unknown> }
  | { kind: 'sleep'; seconds: number }
  | { kind: 'echo_env'; name: string }
  | { kind: 'fail'; message: string }
  /** What the turn cost, as a model-driven CLI reports it (summed over the turn's cost steps). */
  | { kind: 'cost'; usd: number }
  | { kind: 'burst'; count: number; rate: number };

export type ParsedPrompt =
  { kind: 'script'; steps: Step[] } | { kind: 'demo' } | { kind: 'bad_script'; message: string };

export const SLEEP_MAX_SECONDS = 600;
export const BURST_MAX_COUNT = 100_000;
export const BURST_MAX_RATE = 5_000;
export const DEMO_PROMPT_CHARS = 200;

const TARGET = /^([^.]+)\.(.+)$/;

const STEP_SCHEMAS = {
  say: z
    .object({ say: z.string() })
    .strict()
    .transform((s): Step => ({ kind: 'say', text: s.say })),
  call: z
    .object({
      call: z.string().regex(TARGET, 'call names "<server>.<tool>", e.g. "sessionboxer.whoami"'),
      args: z.record(z.unknown()).default({}),
    })
    .strict()
    .transform((s): Step => {
      const [, server, tool] = TARGET.exec(s.call) ?? [];
      return { kind: 'call', server, tool, args: s.args };
    }),
  sleep: z
    .object({
      sleep: z
        .number()
        .min(0, `sleep is 0–${SLEEP_MAX_SECONDS} seconds`)
        .max(SLEEP_MAX_SECONDS, `sleep is 0–${SLEEP_MAX_SECONDS} seconds`),
    })
    .strict()
    .transform((s): Step => ({ kind: 'sleep', seconds: s.sleep })),
  echo_env: z
    .object({ echo_env: z.string().min(1, 'echo_env names an environment variable') })
    .strict()
    .transform((s): Step => ({ kind: 'echo_env', name: s.echo_env })),
  fail: z
    .object({ fail: z.string() })
    .strict()
    .transform((s): Step => ({ kind: 'fail', message: s.fail })),
  cost: z
    .object({ cost: z.number().min(0, 'cost is dollars, 0 or more').max(1_000_000) })
    .strict()
    .transform((s): Step => ({ kind: 'cost', usd: s.cost })),
  burst: z
    .object({
      burst: z
        .object({
          count: z.number().int().min(1).max(BURST_MAX_COUNT),
          rate: z.number().positive().max(BURST_MAX_RATE),
        })
        .strict(),
    })
    .strict()
    .transform((s): Step => ({ kind: 'burst', ...s.burst })),
};

type StepKey = keyof typeof STEP_SCHEMAS;
const STEP_KEYS = Object.keys(STEP_SCHEMAS) as StepKey[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonObject(text: string): Record<string, unknown> | null {
  if (!text.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

export function issuesText(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** One step, or why it is not one, in words that name where it is. */
function parseStep(raw: unknown, index: number): Step | string {
  const where = `script[${index}]`;
  if (!isRecord(raw)) return `${where} is not an object such as {"say": "hello"}`;
  const keys = STEP_KEYS.filter((k) => k in raw);
  if (keys.length !== 1) {
    const found = Object.keys(raw).join(', ') || 'no keys';
    return `${where} needs exactly one of ${STEP_KEYS.join(', ')} (it has ${found})`;
  }
  const parsed = STEP_SCHEMAS[keys[0]].safeParse(raw);
  return parsed.success ? parsed.data : `${where} (${keys[0]}): ${issuesText(parsed.error)}`;
}

/**
 * Whether the prompt is a script, the demo, or a script that cannot run. An object with a
 * "script" key that is not an array is a bad script rather than the demo: whoever wrote it meant
 * a script and should hear why it did not run.
 */
export function parsePrompt(prompt: string): ParsedPrompt {
  const json = jsonObject(prompt.trim());
  if (json === null || !('script' in json)) return { kind: 'demo' };
  if (!Array.isArray(json.script)) {
    return { kind: 'bad_script', message: '"script" must be an array of steps' };
  }
  const steps: Step[] = [];
  for (const [index, raw] of (json.script as unknown[]).entries()) {
    const step = parseStep(raw, index);
    if (typeof step === 'string') return { kind: 'bad_script', message: step };
    steps.push(step);
  }
  return { kind: 'script', steps };
}

/** The demo's first message: proof the prompt arrived, cut to its first 200 characters. */
export function demoGreeting(prompt: string): string {
  const start = Array.from(prompt).slice(0, DEMO_PROMPT_CHARS).join('');
  return `Scripted harness (no model): I received your prompt: “${start}”`;
}

/** The demo's last message, from sessionboxer.whoami's result. */
export function demoSummary(whoami: { output: string; error: boolean }): string {
  const me = whoami.error ? null : jsonObject(whoami.output.trim());
  if (me === null || typeof me.title !== 'string' || typeof me.environment !== 'string') {
    return `I could not tell which session this is: sessionboxer.whoami answered “${whoami.output}”.`;
  }
  return `This is session “${me.title}” (${me.environment}).`;
}

const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * `${env:NAME}` in any string of a call's args becomes that variable's value ("" when unset),
 * so a script can hand a tool what the harness was given, as a model might (tests use it to
 * show that credentials are masked before anything is recorded).
 */
export function expandEnv(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string')
    return value.replace(ENV_REF, (_, name: string) => env[name] ?? '');
  if (Array.isArray(value)) return value.map((v) => expandEnv(v, env));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env)]));
  }
  return value;
}
