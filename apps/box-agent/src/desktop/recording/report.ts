import type {
  FinishedRecording,
  NarratedRecording,
} from '@sessionboxer/mcp-adapters/desktop/recording';
import { realpathSync } from 'node:fs';
import { postToDaemon } from '../../mcp/daemon-client';

/** Short: the agent waits on stop_recording, and a missed report only costs the chat's player. */
const REPORT_TIMEOUT_MS = 10_000;

/**
 * Tells the control plane about the finished video (through the box's daemon, route `desktop`),
 * in the shape its `recording_finished` report takes. Returns a warning when that failed.
 */
export async function reportFinished(
  daemonUrl: string,
  workspace: string,
  r: Omit<FinishedRecording, 'warning'>,
): Promise<string | undefined> {
  const real = realWorkspace(workspace);
  const asInBox = (p: string): string => boxPath(real, boxPath(workspace, p));
  const narration = r.narration
    ? 'added' in r.narration
      ? 'added'
      : 'pending' in r.narration
        ? 'pending'
        : 'skipped'
    : null;
  const args = {
    path: asInBox(r.path),
    startedAt: r.startedAt,
    recordedSeconds: r.recordedSeconds,
    seconds: r.seconds,
    captions: r.captions,
    track: r.track ? asInBox(r.track) : null,
    narration,
    bytes: r.bytes,
  };
  const options = {
    baseUrl: daemonUrl,
    endpoint: 'desktop',
    timeoutMs: REPORT_TIMEOUT_MS,
  } as const;
  const answer = await postToDaemon(options, 'recording_finished', args);
  if (answer.ok) return undefined;
  return `the chat was not told about the video: ${answer.error.message} (${answer.error.code})`;
}

/** Tells the control plane that narrate_recording re-timed a recording and added its voice. */
export async function reportNarrated(
  daemonUrl: string,
  workspace: string,
  r: Omit<NarratedRecording, 'warning'>,
): Promise<string | undefined> {
  const real = realWorkspace(workspace);
  const asInBox = (p: string): string => boxPath(real, boxPath(workspace, p));
  const args = {
    path: asInBox(r.path),
    seconds: r.seconds,
    bytes: r.bytes,
    captions: r.captions,
    track: r.track ? asInBox(r.track) : null,
  };
  const options = {
    baseUrl: daemonUrl,
    endpoint: 'desktop',
    timeoutMs: REPORT_TIMEOUT_MS,
  } as const;
  const answer = await postToDaemon(options, 'recording_narrated', args);
  if (answer.ok) return undefined;
  return `the chat was not told about the narration: ${answer.error.message} (${answer.error.code})`;
}

/**
 * The control plane knows a box's files by their path inside the box. An unisolated box's
 * workspace is a host folder: its files are reported as the /workspace paths they stand for.
 */
export function boxPath(workspace: string, p: string): string {
  const root = workspace.replace(/\/+$/, '');
  if (root === '/workspace' || !p.startsWith(`${root}/`)) return p;
  return `/workspace/${p.slice(root.length + 1)}`;
}

/** Recording paths are resolved (realpath); the workspace may be named through a symlink. */
function realWorkspace(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return workspace;
  }
}
