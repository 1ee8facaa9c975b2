import { existsSync } from 'node:fs';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type {
  CaptionAdded,
  FinishedRecording,
  NarratedRecording,
  RecordingInfo,
  RecordingPort,
  RecordingStatus,
} from '@sessionboxer/mcp-adapters/desktop/recording';
import { errorMessage } from '../../log';
import { captureAlive, startCapture, stopCapture } from './capture';
import { finishRecording, type FinishContext, type Stopped } from './finish';
import { round2 } from './media-files';
import { narrateRecording } from './narrate';
import type { NarrationSetting } from './narration';
import { reportFinished, reportNarrated } from './report';
import { pidAlive, StateStore, type RecordingState } from './state';
import { espeakTts, type TtsPort } from './tts';
import { newRecordingPath, recordingsFolder, siblings } from './workspace-paths';

export interface RecorderOptions {
  /** The box's X display, ":99". */
  display: string;
  screen: { width: number; height: number };
  /** Recordings go to <workspace>/recordings. */
  workspace: string;
  /** The box's tmpfs folder for the running recording's state, e.g. /tmp/sessionboxer-recording. */
  stateDir: string;
  /** Narration's voice; espeak-ng when left out, none with null. */
  tts?: TtsPort | null;
  narration: NarrationSetting;
  /** The box's daemon, which forwards the finished recording to the control plane. */
  daemonUrl: string;
  /** Frames per second grabbed (default 15). */
  fps?: number;
}

/** At most this many captions per recording (the control plane keeps as many). */
export const MAX_CAPTIONS = 500;
const FINISH_TIMEOUT_MS = 30 * 60_000;

const nothingRecording = () =>
  new DomainError(ErrorCode.InvalidState, 'nothing is recording: call start_recording first');

const sinceStart = (state: RecordingState, now = Date.now()) =>
  round2((now - Date.parse(state.startedAt)) / 1000);

/**
 * The recorder behind the recording tools. It keeps nothing in memory: every method works from
 * the state file, so a recorder in a later MCP server process carries on what an earlier one
 * started.
 */
class Recorder implements RecordingPort {
  private readonly store: StateStore;
  private readonly ctx: FinishContext;
  private readonly fps: number;

  constructor(private readonly options: RecorderOptions) {
    this.store = new StateStore(options.stateDir);
    this.fps = options.fps ?? 15;
    this.ctx = {
      workspace: options.workspace,
      fps: this.fps,
      tts: options.tts === undefined ? espeakTts() : options.tts,
      narration: options.narration,
      timeoutMs: FINISH_TIMEOUT_MS,
    };
  }

  /** The running recording, or null (a state whose ffmpeg died counts as none). */
  private async running(): Promise<RecordingState | null> {
    const state = await this.store.read();
    return state && captureAlive(state.pid, state.capturePath) ? state : null;
  }

  start(): Promise<RecordingInfo> {
    return this.store.withLock(async () => {
      const current = await this.running();
      if (current) {
        const what = `${current.path}, started ${current.startedAt}`;
        const message = `a recording is already running (${what}); stop_recording finishes it`;
        throw new DomainError(ErrorCode.Conflict, message);
      }
      const now = new Date();
      const path = await newRecordingPath(await recordingsFolder(this.options.workspace), now);
      const { capture, log } = siblings(path);
      const { display, screen } = this.options;
      const capturing = { display, screen, fps: this.fps, capturePath: capture, logPath: log };
      const pid = await startCapture(capturing);
      const startedAt = now.toISOString();
      const state: RecordingState = {
        pid,
        display,
        path,
        capturePath: capture,
        logPath: log,
        startedAt,
        captions: [],
      };
      await this.store.write(state).catch(async (e: unknown) => {
        await stopCapture(pid, capture);
        throw e;
      });
      return { path, startedAt, seconds: 0, captions: 0 };
    });
  }

  annotate(text: string): Promise<CaptionAdded> {
    return this.store.withLock(async () => {
      const state = await this.running();
      if (!state || state.stopper !== undefined) throw nothingRecording();
      if (state.captions.length >= MAX_CAPTIONS) {
        const message = `a recording holds at most ${MAX_CAPTIONS} captions`;
        throw new DomainError(ErrorCode.LimitReached, message);
      }
      const at = sinceStart(state);
      await this.store.write({ ...state, captions: [...state.captions, { at, text }] });
      return { at, text, path: state.path };
    });
  }

  async status(): Promise<RecordingStatus> {
    const state = await this.running();
    if (!state || state.stopper !== undefined) return { recording: false };
    const { path, startedAt } = state;
    return { path, startedAt, seconds: sinceStart(state), captions: state.captions.length };
  }

  async stop(narrate: boolean | undefined): Promise<FinishedRecording> {
    const { state, alive } = await this.claim();
    const stoppedAt = Date.now();
    const warnings: string[] = [];
    if (!alive) warnings.push('ffmpeg had stopped before stop_recording: the video ends there');
    const slow = await stopCapture(state.pid, state.capturePath);
    if (slow) warnings.push(slow);
    await this.store.withLock(() => this.store.remove());
    const recordedSeconds = alive ? sinceStart(state, stoppedAt) : null;
    const finished = await this.finish({ state, recordedSeconds, narrate });
    const { warnings: more, ...result } = finished;
    warnings.push(...more);
    const unreported = await reportFinished(this.options.daemonUrl, this.options.workspace, result);
    if (unreported) warnings.push(unreported);
    return { ...result, ...(warnings.length ? { warning: warnings.join('; ') } : {}) };
  }

  async narrate(path: string): Promise<NarratedRecording> {
    const { warning, ...result } = await narrateRecording(this.ctx, path);
    const unreported = await reportNarrated(this.options.daemonUrl, this.options.workspace, result);
    const warnings = [warning, unreported].filter((w): w is string => Boolean(w));
    return { ...result, ...(warnings.length ? { warning: warnings.join('; ') } : {}) };
  }

  /** Marks the recording as being stopped by this process, so no other stop takes it too. */
  private claim() {
    return this.store.withLock(async () => {
      const state = await this.store.read();
      if (!state) throw nothingRecording();
      if (state.stopper !== undefined && pidAlive(state.stopper)) {
        const message = `another stop_recording is already finishing ${state.path}`;
        throw new DomainError(ErrorCode.Conflict, message);
      }
      const alive = captureAlive(state.pid, state.capturePath);
      if (!alive && !existsSync(state.capturePath)) {
        await this.store.remove();
        throw nothingRecording();
      }
      await this.store.write({ ...state, stopper: process.pid });
      return { state, alive };
    });
  }

  private async finish(stopped: Stopped) {
    try {
      return await finishRecording(this.ctx, stopped);
    } catch (e) {
      throw new DomainError(
        ErrorCode.Unavailable,
        `the recording stopped but its video could not be finished: ${errorMessage(e)}. ` +
          `The raw capture is kept at ${stopped.state.capturePath}`,
      );
    }
  }
}

/** The box's recorder, as the desktop server constructs it (once per server process). */
export function createRecorder(options: RecorderOptions): RecordingPort {
  return new Recorder(options);
}
