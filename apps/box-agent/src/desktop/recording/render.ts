import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { BandLayout } from './captions';
import { MediaError, runMedia } from './ffmpeg';
import type { Timeline } from './timeline';

/**
 * The one encoding pass that finishes a video: cuts and holds (select, setpts, fps, tpad), the
 * caption band (pad, then one drawtext per caption reading its text from a file with expansion
 * off, so no caption is ever parsed by ffmpeg), the spoken sentences (adelay, amix), and H.264
 * yuv420p + AAC with the index in front (+faststart). The filter graph goes to ffmpeg as a
 * script file; it holds only numbers and paths this recorder created.
 */

export interface BandSpec {
  layout: BandLayout;
  /** The desktop's height: the band starts under it. */
  screenHeight: number;
  fontFile: string | null;
  /** One file per caption (its wrapped lines), shown from `start` to `end` (finished times). */
  captions: { file: string; start: number; end: number }[];
}

export interface RenderJob {
  input: string;
  output: string;
  fps: number;
  timeline: Timeline;
  /** Absent when the band is already burned in (narrating a finished video). */
  band?: BandSpec;
  /** Each sentence's WAV and when it starts in the finished video. */
  speech: { file: string; at: number }[];
  /** Where the filter script is written (a folder this recorder made). */
  workDir: string;
  timeoutMs: number;
}

const BAND_COLOR = '0x111111';
/** What goes into the filter graph unquoted: letters, digits and / . _ + - only. */
const SAFE_PATH = /^[\w/.+-]+$/;

function safe(file: string): string {
  if (!SAFE_PATH.test(file)) throw new MediaError(`unsafe path for a filter graph: ${file}`);
  return file;
}

const sec = (n: number) => String(Math.round(n * 1e4) / 1e4);

function drawtext(band: BandSpec, caption: BandSpec['captions'][number]): string {
  const { layout } = band;
  const options = [
    ...(band.fontFile ? [`fontfile=${safe(band.fontFile)}`] : ['font=monospace']),
    `textfile=${safe(caption.file)}`,
    'expansion=none',
    `fontsize=${layout.fontSize}`,
    'fontcolor=white',
    `line_spacing=${layout.lineSpacing}`,
    `x=${layout.margin}`,
    `y=${band.screenHeight + layout.paddingTop}`,
    `enable='gte(t,${sec(caption.start)})*lt(t,${sec(caption.end)})'`,
  ];
  return `drawtext=${options.join(':')}`;
}

/** The video filters, or null when the video can be copied as it is. */
function videoFilters(job: RenderJob): string[] | null {
  const { timeline, band } = job;
  if (!band && !timeline.edited) return null;
  const filters = ['setpts=PTS-STARTPTS'];
  const select = timeline.selectExpr();
  if (select) filters.push(`select='${select}'`);
  if (timeline.edited) filters.push(`setpts='${timeline.setptsExpr()}'`, `fps=${job.fps}`);
  if (timeline.tail > 0) filters.push(`tpad=stop_mode=clone:stop_duration=${sec(timeline.tail)}`);
  if (band) {
    filters.push(`pad=w=iw:h=ih+${band.layout.height}:x=0:y=0:color=${BAND_COLOR}`);
    filters.push(...band.captions.map((c) => drawtext(band, c)));
  }
  filters.push('format=yuv420p');
  return filters;
}

function audioGraph(speech: RenderJob['speech']): string[] {
  if (!speech.length) return [];
  const delayed = speech.map(
    (s, i) => `[${i + 1}:a]adelay=${Math.round(s.at * 1000)}:all=1[s${i}]`,
  );
  const labels = speech.map((_s, i) => `[s${i}]`).join('');
  return [...delayed, `${labels}amix=inputs=${speech.length}:normalize=0:duration=longest[a]`];
}

export async function render(job: RenderJob): Promise<void> {
  const video = videoFilters(job);
  const graph = [...(video ? [`[0:v:0]${video.join(',')}[v]`] : []), ...audioGraph(job.speech)];
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', job.input];
  for (const s of job.speech) args.push('-i', s.file);
  if (graph.length) {
    const script = path.join(job.workDir, 'filters.txt');
    await fs.writeFile(script, graph.join(';\n'));
    args.push('-filter_complex_script', script);
  }
  args.push('-map', video ? '[v]' : '0:v:0');
  if (video)
    args.push('-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p');
  else args.push('-c:v', 'copy');
  if (job.speech.length) args.push('-map', '[a]', '-c:a', 'aac', '-b:a', '96k');
  else args.push('-an');
  args.push('-movflags', '+faststart', '-f', 'mp4', job.output);
  await runMedia('ffmpeg', args, 'encoding the video', job.timeoutMs);
}
