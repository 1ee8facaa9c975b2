import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { AGENT_HELP, AGENT_OPTIONS, agentCall, agentHuman } from './agent.command';
import { savedCredentials } from './credentials';
import {
  DESKTOP_HELP,
  DESKTOP_OPTIONS,
  DESKTOP_VERBS,
  desktopCall,
  desktopHuman,
} from './desktop.command';
import { TOKEN_HELP, TOKEN_OPTIONS, tokenCall } from './token.command';
import { A11Y_HELP, A11Y_OPTIONS, A11Y_VERBS, a11yCall, a11yHuman } from './a11y.command';

/**
 * `sessionboxer sandbox <verb>` and `sessionboxer env <verb>`: the sandbox API's REST face
 * (`POST /v1/<tool>`, the same tools and zod schemas as MCP) with an API key. Tables for
 * people, `--json` for scripts. The server checks every argument; the CLI only maps flags.
 */
export const SANDBOX_USAGE = `  sandbox create|list|update|stop|resume|fork|destroy|exec|read|write|desktop|open-url|screenshot|input|token|a11y|a11y-action
           the sandbox API
           (an API key in $SESSIONBOXER_API_KEY or --key; --url, default $SESSIONBOXER_URL or
           http://127.0.0.1:8080); sessionboxer sandbox --help lists the flags
  env create|list|set|products  secrets environments of the key's org
  agent prompt|conversations  coding agents in a sandbox (agent_prompt, agent_conversations)`;

const HELP = `usage:
  sessionboxer sandbox create [--name N] [--size small|standard|large|xl] [--secret S]...
        [--environment E] [--idle-timeout SECONDS] [--stop-when-agents-finish] [--metadata k=v]...
        [--idempotency-key K]
  sessionboxer sandbox list [--all] [--metadata k=v]...
  sessionboxer sandbox update SANDBOX [--idle-timeout S] [--stop-when-agents-finish true|false] [--metadata k=v]...
  sessionboxer sandbox stop|resume|destroy SANDBOX
  sessionboxer sandbox fork SANDBOX [--name N]
  sessionboxer sandbox exec SANDBOX COMMAND... [--cwd DIR] [--env K=V]... [--timeout SECONDS]
        (exits with the command's exit code)
  sessionboxer sandbox read SANDBOX PATH [--out FILE]
  sessionboxer sandbox write SANDBOX PATH (--content TEXT | --file LOCAL_FILE)
  sessionboxer env list | create NAME | set NAME --value V [--environment E] [--product P]...
  sessionboxer env products NAME --product P... [--environment E]
${DESKTOP_HELP}
${TOKEN_HELP}
${A11Y_HELP}
${AGENT_HELP}
common: --json  --key KEY  --url URL`;

const OPTIONS = {
  json: { type: 'boolean', default: false },
  key: { type: 'string' },
  url: { type: 'string' },
  name: { type: 'string' },
  size: { type: 'string' },
  secret: { type: 'string', multiple: true },
  environment: { type: 'string' },
  'idle-timeout': { type: 'string' },
  'stop-when-agents-finish': { type: 'string' },
  metadata: { type: 'string', multiple: true },
  'idempotency-key': { type: 'string' },
  all: { type: 'boolean', default: false },
  cwd: { type: 'string' },
  env: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  content: { type: 'string' },
  file: { type: 'string' },
  out: { type: 'string' },
  value: { type: 'string' },
  product: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h', default: false },
  ...AGENT_OPTIONS,
  ...DESKTOP_OPTIONS,
  ...TOKEN_OPTIONS,
  ...A11Y_OPTIONS,
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

const pairs = (list: string[] | undefined) =>
  list === undefined
    ? undefined
    : Object.fromEntries(
        list.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const flag = (v: string | undefined) => (v === undefined ? undefined : v !== 'false');

/** The tool and its arguments a command line means; null when it means nothing. */
export function toolCall(
  group: string,
  verb: string,
  rest: string[],
  v: Values,
): [string, Record<string, unknown>] | null {
  if (group === 'agent') return agentCall(verb, rest, v);
  if (group === 'sandbox' && DESKTOP_VERBS.includes(verb)) return desktopCall(verb, rest, v);
  if (group === 'sandbox' && verb === 'token') return tokenCall(rest, v);
  if (group === 'sandbox' && A11Y_VERBS.includes(verb)) return a11yCall(verb, rest, v);
  const sandbox = rest[0];
  const drop = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));
  if (group === 'env') {
    const environment = v.environment;
    if (verb === 'list') return ['list_environments', {}];
    if (verb === 'create') return ['create_environment', { name: rest[0] }];
    if (verb === 'set')
      return [
        'set_secret',
        drop({ name: rest[0], value: v.value, environment, products: v.product }),
      ];
    if (verb === 'products')
      return [
        'set_secret_products',
        drop({ name: rest[0], products: v.product ?? [], environment }),
      ];
    return null;
  }
  switch (verb) {
    case 'create':
      return [
        'sandbox_create',
        drop({
          name: v.name,
          size: v.size,
          secrets: v.secret,
          environment: v.environment,
          idle_timeout_seconds: num(v['idle-timeout']),
          stop_when_agents_finish:
            v['stop-when-agents-finish'] === undefined
              ? undefined
              : flag(v['stop-when-agents-finish']),
          metadata: pairs(v.metadata),
          idempotency_key: v['idempotency-key'],
        }),
      ];
    case 'list':
      return ['sandbox_list', drop({ all: v.all || undefined, metadata: pairs(v.metadata) })];
    case 'update':
      return [
        'sandbox_update',
        drop({
          sandbox,
          idle_timeout_seconds: num(v['idle-timeout']),
          stop_when_agents_finish: flag(v['stop-when-agents-finish']),
          metadata: pairs(v.metadata),
        }),
      ];
    case 'stop':
    case 'resume':
    case 'destroy':
      return [`sandbox_${verb}`, { sandbox }];
    case 'fork':
      return ['sandbox_fork', drop({ sandbox, name: v.name })];
    case 'exec':
      return [
        'sandbox_exec',
        drop({
          sandbox,
          command: rest.slice(1).join(' '),
          cwd: v.cwd,
          env: pairs(v.env),
          timeout_seconds: num(v.timeout),
        }),
      ];
    case 'read':
      return ['sandbox_read_file', { sandbox, path: rest[1] }];
    case 'write':
      return [
        'sandbox_write_file',
        drop({
          sandbox,
          path: rest[1],
          content: v.content,
          content_base64:
            v.file === undefined ? undefined : fs.readFileSync(v.file).toString('base64'),
        }),
      ];
    default:
      return null;
  }
}

const COLUMNS = ['name', 'status', 'size', 'cents_per_hour', 'cost_cents', 'metadata'] as const;

/** A table of sandboxes: one row each, the columns people look at. */
export function sandboxTable(rows: Record<string, unknown>[]): string {
  const cell = (r: Record<string, unknown>, c: string) => {
    const x = r[c];
    if (c === 'metadata')
      return Object.entries((x ?? {}) as Record<string, string>)
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
    if (c === 'status' && typeof r.stopped_reason === 'string')
      return `stopped (${r.stopped_reason})`;
    return String(x);
  };
  const cells = [
    COLUMNS.map((c) => c.toUpperCase()),
    ...rows.map((r) => COLUMNS.map((c) => cell(r, c))),
  ];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells
    .map((row) =>
      row
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

interface Answer {
  sandboxes: Record<string, unknown>[];
  stdout: string;
  stderr: string;
  truncated: boolean;
  exit_code: number;
  content: string;
  encoding: string;
  error: string;
  message: string;
}

function human(tool: string, body: Answer, out?: string): [string, number] {
  if (tool.startsWith('agent_'))
    return agentHuman(tool, body as unknown as Record<string, unknown>);
  if (['sandbox_desktop', 'sandbox_open_url', 'sandbox_screenshot', 'sandbox_input'].includes(tool))
    return [desktopHuman(tool, body as unknown as Record<string, unknown>, out), 0];
  if (tool.startsWith('sandbox_accessibility_'))
    return [a11yHuman(tool, body as unknown as Record<string, unknown>), 0];
  if (tool === 'sandbox_list') return [sandboxTable(body.sandboxes), 0];
  if (tool === 'sandbox_exec') {
    process.stderr.write(body.stderr);
    return [
      body.stdout.replace(/\n$/, '') + (body.truncated ? '\n[output cut at 1 MB]' : ''),
      body.exit_code,
    ];
  }
  if (tool === 'sandbox_read_file') {
    const bytes = Buffer.from(body.content, body.encoding === 'base64' ? 'base64' : 'utf8');
    if (out !== undefined) {
      fs.writeFileSync(out, bytes);
      return [`${bytes.length} bytes to ${out}`, 0];
    }
    return [bytes.toString('utf8'), 0];
  }
  if (typeof body === 'object' && 'id' in body) {
    return [sandboxTable([body as unknown as Record<string, unknown>]), 0];
  }
  return [JSON.stringify(body, null, 2), 0];
}

/** Runs `sandbox …` / `env …` / `agent …`; the exit code (exec: the command's). */
export async function sandboxCommand(group: string, argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
  });
  const call =
    positionals[0] === undefined
      ? null
      : toolCall(group, positionals[0], positionals.slice(1), values);
  if (values.help || call === null) {
    console.log(HELP);
    return values.help ? 0 : 2;
  }
  // What `sessionboxer login` saved, when neither a flag nor the environment gives a key.
  const saved = values.key || process.env.SESSIONBOXER_API_KEY ? null : savedCredentials();
  const key = values.key ?? process.env.SESSIONBOXER_API_KEY ?? saved?.key;
  if (!key)
    throw new Error('an API key is needed: --key, $SESSIONBOXER_API_KEY or sessionboxer login');
  const url = (
    values.url ??
    process.env.SESSIONBOXER_URL ??
    saved?.url ??
    'http://127.0.0.1:8080'
  ).replace(/\/+$/, '');
  const [tool, args] = call;
  const res = await fetch(`${url}/v1/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(args),
  });
  const body = (await res.json()) as Answer;
  if (!res.ok) {
    if (values.json) console.log(JSON.stringify(body));
    else console.error(`${tool}: ${body.error}: ${body.message}`);
    return 1;
  }
  if (values.json) {
    console.log(JSON.stringify(body));
    return tool === 'sandbox_exec' ? body.exit_code : 0;
  }
  const [text, code] = human(tool, body, values.out);
  if (text.length > 0) console.log(text);
  return code;
}
