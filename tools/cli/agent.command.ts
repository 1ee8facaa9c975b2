/**
 * `sessionboxer agent prompt|conversations`: the sandbox API's coding-agent tools
 * (agent_prompt, agent_conversations) with an API key, through sandbox.command's REST call.
 */
export const AGENT_HELP = `  sessionboxer agent prompt SANDBOX PROMPT... [--conversation C | --new] [--harness claude|opencode]
        [--model M] [--wait SECONDS]   (exits 1 when the turn failed)
  sessionboxer agent conversations SANDBOX [--conversation C [--after SEQ]]`;

export const AGENT_OPTIONS = {
  conversation: { type: 'string' },
  new: { type: 'boolean' },
  harness: { type: 'string' },
  model: { type: 'string' },
  wait: { type: 'string' },
  after: { type: 'string' },
} as const;

interface AgentValues {
  conversation?: string;
  new?: boolean;
  harness?: string;
  model?: string;
  wait?: string;
  after?: string;
}

const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const drop = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));

/** The tool and arguments of an `agent …` command line; null when it means nothing. */
export function agentCall(
  verb: string,
  rest: string[],
  v: AgentValues,
): [string, Record<string, unknown>] | null {
  const sandbox = rest[0];
  if (verb === 'prompt') {
    return [
      'agent_prompt',
      drop({
        sandbox,
        prompt: rest.slice(1).join(' '),
        conversation: v.conversation,
        new: v.new,
        harness: v.harness,
        model: v.model,
        wait_seconds: num(v.wait),
      }),
    ];
  }
  if (verb === 'conversations') {
    return [
      'agent_conversations',
      drop({ sandbox, conversation: v.conversation, after: num(v.after) }),
    ];
  }
  return null;
}

type Json = Record<string, unknown>;

/** One event as a line: `#seq turn N type: what it says`. */
export function eventLine(e: Json): string {
  const what =
    e.type === 'prompt' || e.type === 'message'
      ? String(e.text)
      : e.type === 'tool_call'
        ? `${String(e.name)} ${JSON.stringify(e.input)}`
        : e.type === 'tool_result'
          ? `${e.error ? '(error) ' : ''}${String(e.output)}`
          : e.type === 'turn_finished'
            ? `${String(e.status)} (${String(e.input_tokens)} in, ${String(e.output_tokens)} out)`
            : `${String(e.code)}: ${String(e.message)}`;
  return `#${String(e.seq)} turn ${String(e.turn)} ${String(e.type)}: ${what.replace(/\n/g, '\n    ')}`;
}

const cell = (x: unknown): string =>
  typeof x === 'string' || typeof x === 'number' ? String(x) : x == null ? '' : JSON.stringify(x);

const COLUMNS = ['id', 'harness', 'model', 'status', 'turns', 'queued', 'preview'];

/** What a person reads of an agent tool's answer, and the exit code. */
export function agentHuman(tool: string, body: Json): [string, number] {
  if (Array.isArray(body.conversations)) {
    const rows = (body.conversations as Json[]).map((c) =>
      COLUMNS.map((k) => cell(c[k]).replace(/\s+/g, ' ').slice(0, 60)),
    );
    const cells = [COLUMNS.map((c) => c.toUpperCase()), ...rows];
    const widths = COLUMNS.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
    const text = cells.map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
    return [text.join('\n'), 0];
  }
  const lines = ((body.events ?? []) as Json[]).map(eventLine);
  const head =
    tool === 'agent_prompt'
      ? `conversation ${String(body.conversation)} turn ${String(body.turn)}: ${String(body.status)}`
      : `status ${String(body.status)}`;
  lines.push(head, `next_after ${String(body.next_after)}`);
  const failed = body.status === 'failed' || body.status === 'interrupted';
  return [lines.join('\n'), tool === 'agent_prompt' && failed ? 1 : 0];
}
