import type { HarnessOutput } from '@sessionboxer/domain';
import type { AgentOutputFrame, TurnStartPush } from '@sessionboxer/mcp-adapters/bridge/protocol';

export const FINISHED: HarnessOutput = {
  type: 'turn_finished',
  status: 'finished',
  input_tokens: 0,
  output_tokens: 0,
  usage: null,
  context: null,
};
export const FAILED: HarnessOutput = { ...FINISHED, status: 'failed' };

/** A scripted harness's prompt: the steps of script.ts, as JSON. */
export function script(...steps: unknown[]): string {
  return JSON.stringify({ script: steps });
}

export function turnStart(
  conversationId: string,
  turn: number,
  prompt: string,
  env: Record<string, string> = {},
): TurnStartPush {
  return {
    conversationId,
    turn,
    harness: 'scripted',
    prompt,
    briefing: null,
    model: 'default',
    harnessSessionId: null,
    env,
  };
}

export function outputsOf(frames: readonly AgentOutputFrame[]): HarnessOutput[] {
  return frames.flatMap((f) => f.outputs as unknown as HarnessOutput[]);
}

/** What each frame's fromIndex must be for a turn's frames, in order, to leave no gap. */
export function contiguousIndexes(frames: readonly AgentOutputFrame[]): number[] {
  let next = 0;
  return frames.map((f) => {
    const at = next;
    next += f.outputs.length;
    return at;
  });
}

/** The agent.output frames a TurnRunner delivered, as the daemon would hand them on. */
export class DeliveredFrames {
  readonly frames: AgentOutputFrame[] = [];

  readonly deliver = (_event: 'agent.output', frame: AgentOutputFrame): void => {
    this.frames.push(frame);
  };

  of(conversationId: string, turn: number): AgentOutputFrame[] {
    return this.frames.filter((f) => f.conversationId === conversationId && f.turn === turn);
  }

  outputs(conversationId: string, turn: number): HarnessOutput[] {
    return outputsOf(this.of(conversationId, turn));
  }
}
