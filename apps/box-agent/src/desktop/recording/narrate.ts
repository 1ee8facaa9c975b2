import { promises as fs } from 'node:fs';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { NarratedRecording } from '@sessionboxer/mcp-adapters/desktop/recording';
import { ToolCallError } from '@sessionboxer/mcp-adapters/kit';
import { fromVtt } from './captions';
import { probe } from './ffmpeg';
import { withSpeech, type FinishContext } from './finish';
import { replaceWith, round2, tempBeside, withWorkDir, writeTrack } from './media-files';
import { added, fallbackWarning, speakCaptions } from './narration';
import { render } from './render';
import { Timeline } from './timeline';
import { existingRecording, siblings } from './workspace-paths';

function refuse(message: string): ToolCallError {
  return new ToolCallError('narrate_recording', [{ field: 'path', message }]);
}

/** The captions of a finished recording, from the .vtt stop_recording wrote beside it. */
async function captionsBeside(mp4: string) {
  const vtt = siblings(mp4).vtt;
  const text = await fs.readFile(vtt, 'utf8').catch(() => null);
  if (text === null) {
    throw refuse(`${mp4} has no captions track beside it (${vtt}): narration speaks the captions`);
  }
  const captions = fromVtt(text);
  if (!captions.length) throw refuse(`${vtt} holds no captions to speak`);
  return captions;
}

/**
 * narrate_recording: speaks the captions of a finished video and rewrites it in place with the
 * audio track. Steps shorter than their sentence hold their last frame (a re-encode); when none
 * is, the video stream is copied as it is. Narrating again replaces the audio.
 */
export async function narrateRecording(
  ctx: FinishContext,
  given: string,
): Promise<NarratedRecording> {
  const mp4 = await existingRecording(ctx.workspace, given);
  const source = await captionsBeside(mp4);
  const tts = ctx.tts;
  const missing = tts === null ? 'no text-to-speech engine is set up in this box' : tts.missing();
  if (tts === null || missing !== null) {
    throw new DomainError(
      ErrorCode.Unavailable,
      `cannot narrate: ${missing}; the video is unchanged`,
    );
  }
  const info = await probe(mp4);
  return withWorkDir(async (dir) => {
    const began = Date.now();
    const speech = await speakCaptions(tts, source, dir);
    const timeline = withSpeech(new Timeline(), source, speech, info.seconds);
    const captions = source.map((c) => ({ at: round2(timeline.map(c.at)), text: c.text }));
    const temp = tempBeside(mp4);
    await render({
      input: mp4,
      output: temp,
      fps: ctx.fps,
      timeline,
      speech: speech.files.map((f, i) => ({ file: f.file, at: captions[i].at })),
      workDir: dir,
      timeoutMs: ctx.timeoutMs,
    });
    const bytes = await replaceWith(temp, mp4);
    const seconds = round2((await probe(mp4)).seconds);
    const track = await writeTrack(ctx.workspace, siblings(mp4).vtt, captions, seconds);
    const narration = added(tts, speech, began);
    const warning = fallbackWarning(tts, narration);
    return {
      path: mp4,
      seconds,
      bytes,
      captions,
      track,
      narration,
      ...(warning ? { warning } : {}),
    };
  });
}
