/**
 * What the model-provider double answers: a script of steps, each the content blocks of one
 * model answer. Step k answers the conversation's request that already holds k answers of the
 * model (k assistant messages), so a tool_result coming back moves the script on, a retried
 * request gets the same answer again, and a later turn (the CLI resending the whole history)
 * goes on where the last one stopped.
 */
export type ScriptBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; name: string; input: Record<string, unknown> };

export type ScriptStep = ScriptBlock[];

export const say = (text: string): ScriptBlock => ({ type: 'text', text });
export const use = (name: string, input: Record<string, unknown> = {}): ScriptBlock => ({
  type: 'tool_use',
  name,
  input,
});

/** What the double says once its script is over, and to every side request. */
export const SCRIPT_OVER = 'The model-provider double has nothing more to say.';
export const SIDE_ANSWER = 'Sessionboxer double';

/** Stop reason of a step: tool_use when it calls a tool, else end_turn. */
export function stopsForTools(step: ScriptStep): boolean {
  return step.some((b) => b.type === 'tool_use');
}

export class Script {
  private steps: ScriptStep[] = [];
  private ids = 0;

  play(steps: ScriptStep[]): void {
    this.steps = steps;
  }

  /** The step that answers a conversation holding `answered` model answers. */
  stepFor(answered: number): ScriptStep {
    return this.steps[answered] ?? [say(SCRIPT_OVER)];
  }

  /** A fresh id for a tool call (toolu_… for Anthropic, call_… for OpenAI). */
  nextId(prefix: string): string {
    this.ids += 1;
    return `${prefix}${String(this.ids).padStart(6, '0')}double`;
  }
}
