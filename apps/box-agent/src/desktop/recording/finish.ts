import { promises as fs } from 'node:fs';
import type {
  Caption,
  FinishedRecording,
  Narration,
} from '@sessionboxer/mcp-adapters/desktop/recording';
import { errorMessage } from '../../log';
import { bandLayout, readingSeconds, type BandLayout } from './captions';
import { changedFrames, probe, type MediaInfo } from './ffmpeg';
import { replaceWith, round2, tempBeside, withWorkDir, writeBand, writeTrack } from './media-files';
import {
  added,
  estimateNarration,
  fallbackWarning,
  pending,
  planNarration,
  SENTENCE_GAP,
  speakCaptions,
  type NarrationPlan,
  type NarrationSetting,
  type Speech,
} from './narration';
import { render } from './render';
import type { RecordingState } from './state';
import { CONDENSE, narrationHolds, staticCuts, Timeline } from './timeline';
import type { TtsPort } from './tts';
import { siblings } from './workspace-paths';

/** What finishing needs besides the recording itself. */
export interface FinishContext {
  workspace: string;
  fps: number;
  tts: TtsPort | null;
  narration: NarrationSetting;
  timeoutMs: number;
}

/** The stopped recording: its state, and its wall-clock length (null when ffmpeg had died). */
export interface Stopped {
  state: RecordingState;
  recordedSeconds: number | null;
  narrate: boolean | undefined;
}

export type Finished = Omit<FinishedRecording, 'warning'> & { warnings: string[] };

/**
 * Captions move from wall-clock time to capture time: ffmpeg starts grabbing a little after
 * startedAt, and the difference between the wall-clock and the captured length is that delay.
 */
function captureCaptions(stopped: Stopped, captured: number): Caption[] {
  const delay = Math.max(0, (stopped.recordedSeconds ?? captured) - captured);
  return stopped.state.captions.map((c) => ({
    at: Math.min(captured, Math.max(0, c.at - delay)),
    text: c.text,
  }));
}

/** The cuts that condense static stretches (a new caption counts as a change). */
async function condense(ctx: FinishContext, capture: string, source: Caption[], seconds: number) {
  const frames = await changedFrames(capture, ctx.timeoutMs);
  const changes = [
    ...frames.map((at) => ({ at, readSeconds: 0 })),
    ...source.map((c) => ({ at: c.at, readSeconds: readingSeconds(c.text) })),
  ];
  return new Timeline(staticCuts(changes, seconds, { ...CONDENSE, fps: ctx.fps }));
}

function plan(
  ctx: FinishContext,
  stopped: Stopped,
  source: Caption[],
  silent: { seconds: number; pixels: number },
): NarrationPlan {
  return planNarration({
    captions: source,
    narrate: stopped.narrate,
    setting: ctx.narration,
    tts: ctx.tts,
    estimate: () =>
      estimateNarration(
        ctx.tts as TtsPort,
        source.map((c) => c.text),
        silent.seconds,
        silent.pixels,
      ),
  });
}

/** Speaks the captions; a failure leaves the video silent and says why. */
async function speak(ctx: FinishContext, source: Caption[], dir: string, warnings: string[]) {
  try {
    return await speakCaptions(ctx.tts as TtsPort, source, dir);
  } catch (e) {
    warnings.push(`no narration: speaking the captions failed: ${errorMessage(e)}`);
    return null;
  }
}

function narrationOf(
  ctx: FinishContext,
  decided: NarrationPlan,
  speech: Speech | null,
  began: number,
  path: string,
): Narration | undefined {
  const tts = ctx.tts as TtsPort;
  switch (decided.kind) {
    case 'absent':
      return undefined;
    case 'skip':
      return { skipped: decided.reason };
    case 'ask':
      return pending(tts, decided.estimatedSeconds, path);
    case 'speak':
      return speech ? added(tts, speech, began) : { skipped: 'speaking the captions failed' };
  }
}

interface Pass {
  timeline: Timeline;
  captions: Caption[];
  speech: Speech | null;
  layout: BandLayout;
  info: MediaInfo;
}

/** The one encoding pass, then the .mp4 replaces its temp file; returns bytes and seconds. */
async function encode(ctx: FinishContext, state: RecordingState, dir: string, pass: Pass) {
  const { timeline, captions, speech, layout, info } = pass;
  const temp = tempBeside(state.path);
  const end = timeline.length(info.seconds);
  await render({
    input: state.capturePath,
    output: temp,
    fps: ctx.fps,
    timeline,
    band: await writeBand(dir, layout, captions, end, info.height),
    speech: speech ? speech.files.map((f, i) => ({ file: f.file, at: captions[i].at })) : [],
    workDir: dir,
    timeoutMs: ctx.timeoutMs,
  });
  const bytes = await replaceWith(temp, state.path);
  return { bytes, seconds: round2((await probe(state.path)).seconds) };
}

/** `timeline` with holds so that each caption's step lasts as long as its sentence. */
export function withSpeech(
  timeline: Timeline,
  source: Caption[],
  speech: Speech,
  duration: number,
): Timeline {
  const times = source.map((c) => c.at);
  const secs = speech.files.map((f) => f.seconds);
  const { holds, tail } = narrationHolds(timeline, times, secs, duration, SENTENCE_GAP);
  return timeline.withHolds(holds, tail);
}

/** stop_recording's work once ffmpeg has stopped: one encoding pass, then the .vtt. */
export async function finishRecording(ctx: FinishContext, stopped: Stopped): Promise<Finished> {
  const { state } = stopped;
  const info = await probe(state.capturePath);
  const source = captureCaptions(stopped, info.seconds);
  return withWorkDir(async (dir) => {
    const warnings: string[] = [];
    const condensed = await condense(ctx, state.capturePath, source, info.seconds);
    const layout = bandLayout(
      info.width,
      source.map((c) => c.text),
    );
    const decided = plan(ctx, stopped, source, {
      seconds: condensed.length(info.seconds),
      pixels: info.width * (info.height + layout.height),
    });
    if ('warning' in decided && decided.warning) warnings.push(decided.warning);
    const began = Date.now();
    const speech = decided.kind === 'speak' ? await speak(ctx, source, dir, warnings) : null;
    const timeline = speech ? withSpeech(condensed, source, speech, info.seconds) : condensed;
    const captions = source.map((c) => ({ at: round2(timeline.map(c.at)), text: c.text }));
    const pass = { timeline, captions, speech, layout, info };
    const { bytes, seconds } = await encode(ctx, state, dir, pass);
    const vtt = siblings(state.path).vtt;
    const track = captions.length ? await writeTrack(ctx.workspace, vtt, captions, seconds) : null;
    await Promise.all([state.capturePath, state.logPath].map((f) => fs.rm(f, { force: true })));
    const narration = narrationOf(ctx, decided, speech, began, state.path);
    const fallback = fallbackWarning(ctx.tts, narration);
    if (fallback) warnings.push(fallback);
    return {
      path: state.path,
      startedAt: state.startedAt,
      recordedSeconds: round2(stopped.recordedSeconds ?? info.seconds),
      seconds,
      condensed: condensed.cuts.length > 0,
      bytes,
      captions,
      ...(track ? { track } : {}),
      ...(narration ? { narration } : {}),
      warnings,
    };
  });
}
