import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HarnessName, HarnessOutput } from '@sessionboxer/domain';
import type { HarnessAdapter, TurnContext, TurnSpec } from '../harness.port';
import { NO_MEDIA, type MediaSink } from '../saved-image';

export type Exit = { code: number | null; signal: string | null; stderr: string };
export const CLEAN_EXIT: Exit = { code: 0, signal: null, stderr: '' };

/** A turn of `harness` as the daemon would be asked to run it; override what a test needs. */
export function turnSpecFor(harness: HarnessName, conversationId: string) {
  return (overrides: Partial<TurnSpec> = {}): TurnSpec => ({
    turn: 1,
    harness,
    prompt: 'Attach PR #42 to this session.',
    briefing: null,
    model: 'default',
    conversationId,
    harnessSessionId: null,
    env: { ANTHROPIC_API_KEY: 'sk-ant-api03-test' },
    ...overrides,
  });
}

export function turnContext(
  scratchDir: string,
  mcpServers: TurnContext['mcpServers'] = {},
): TurnContext {
  return {
    workspace: '/workspace',
    mcpConfigPath: '/workspace/.mcp.json',
    scratchDir,
    nodePath: '/usr/bin/node',
    mcpServers,
  };
}

/**
 * Feeds a recorded stream (fixtures/) or given lines to the adapter's parser, then the exit;
 * the images of its tool results go to `media` (by default, none is kept).
 */
export function replayer(adapter: HarnessAdapter, turn: TurnSpec, media: MediaSink = NO_MEDIA) {
  const feed = (lines: unknown[], exit: Exit = CLEAN_EXIT): HarnessOutput[] => {
    const parser = adapter.parser(turn, media);
    const texts = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
    return [...texts.flatMap((line) => parser.line(line)), ...parser.end(exit)];
  };
  const replay = (fixture: string, exit: Exit = CLEAN_EXIT): HarnessOutput[] =>
    feed(
      fs.readFileSync(path.join(__dirname, '..', 'fixtures', fixture), 'utf8').split('\n'),
      exit,
    );
  return { feed, replay };
}
