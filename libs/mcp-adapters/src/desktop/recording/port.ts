/**
 * What the desktop server's recording tools can do, as the box's recorder offers it. Shapes
 * follow shared/spec/sessionboxer-desktop-and-sessionboxer-mcp.txt ("Recording"); times are
 * seconds, dates ISO 8601.
 */

/** One caption: `at` seconds from the start of the recording (or of the finished video). */
export interface Caption {
  at: number;
  text: string;
}

/** The running recording: start_recording's answer (seconds 0, captions 0) and the status. */
export interface RecordingInfo {
  path: string;
  startedAt: string;
  seconds: number;
  captions: number;
}

export type RecordingStatus = RecordingInfo | { recording: false };

/** annotate_recording's answer. */
export interface CaptionAdded extends Caption {
  path: string;
}

export interface NarrationAdded {
  added: true;
  language: string;
  voice: string;
  /** Length of the spoken sentences together. */
  speechSeconds: number;
  /** How long speaking and muxing took. */
  processingSeconds: number;
}

export interface NarrationPending {
  pending: true;
  estimatedSeconds: number;
  language: string;
  voice: string;
  /** What the agent does next: ask the person, then call narrate_recording. */
  nextStep: string;
}

export interface NarrationSkipped {
  skipped: string;
}

export type Narration = NarrationAdded | NarrationPending | NarrationSkipped;

/**
 * narrate_recording's answer: stop_recording's shape minus the recording-time fields (startedAt,
 * recordedSeconds, and condensed, which only the stop's own pass decides).
 */
export interface NarratedRecording {
  path: string;
  /** Length of the finished video. */
  seconds: number;
  bytes: number;
  /** With their times in the finished video. */
  captions: Caption[];
  /** The .vtt beside the video, when one was written. */
  track?: string;
  /** Absent when there were no captions. */
  narration?: Narration;
  /** What did not happen as asked; the video is still usable. */
  warning?: string;
}

/** stop_recording's answer. */
export interface FinishedRecording extends NarratedRecording {
  startedAt: string;
  /** Wall-clock length of the recording. */
  recordedSeconds: number;
  /** Whether static stretches were cut. */
  condensed: boolean;
}

/** The recorder behind the recording tools (one per box; its state outlives the process). */
export interface RecordingPort {
  start(): Promise<RecordingInfo>;
  annotate(text: string): Promise<CaptionAdded>;
  /** `narrate` undefined follows the box's narration setting; false skips it. */
  stop(narrate: boolean | undefined): Promise<FinishedRecording>;
  narrate(path: string): Promise<NarratedRecording>;
  status(): Promise<RecordingStatus>;
}
