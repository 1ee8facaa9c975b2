import { memo, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { get, post } from '../api';
import { useAction } from '../hooks';
import { live } from '../live';
import type { PromptReceipt, QueuedPrompt } from '@sessionboxer/contracts';
import { applyActionResult } from '../view-state';
import { ErrorAlert } from './FormParts';

/** How long after the last key the person counts as no longer typing. */
const TYPING_IDLE_MS = 2500;

interface Props {
  sessionId: string;
  turnRunning: boolean;
  stopped: boolean;
}

/**
 * Tells the socket whether the person is typing: from a key that leaves text in the field
 * until TYPING_IDLE_MS without one, a send, leaving the field or another session.
 */
function useTypingSignal(sessionId: string) {
  const idle = useRef<number | undefined>(undefined);
  const stopTyping = () => {
    window.clearTimeout(idle.current);
    live.typing(false);
  };
  useEffect(() => stopTyping, [sessionId]);
  const typed = (value: string) => {
    live.typing(value !== '');
    window.clearTimeout(idle.current);
    idle.current = window.setTimeout(() => live.typing(false), TYPING_IDLE_MS);
  };
  return { typed, stopTyping };
}

/** Sends a prompt; one that waits behind the running turn shows in the queue at once. */
function useSendPrompt(sessionId: string, onSent: () => void) {
  const { busy, error, run } = useAction();
  const send = (text: string) =>
    run(async () => {
      const route = `/api/sessions/${sessionId}/prompts`;
      const receipt = await post<PromptReceipt>(route, { text });
      onSent();
      if (receipt.status === 'queued') {
        const queue = await get<QueuedPrompt[]>(`/api/sessions/${sessionId}/queue`);
        applyActionResult(sessionId, { queue });
      }
    });
  return { busy, error, send };
}

interface FieldProps {
  value: string;
  stopped: boolean;
  onChange: (value: string) => void;
  /** Enter without Shift (and outside a composition) sends; Shift+Enter is a new line. */
  onEnter: (e: KeyboardEvent) => void;
  onBlur: () => void;
}

function PromptField({ value, stopped, onChange, onEnter, onBlur }: FieldProps) {
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) onEnter(e);
  };
  return (
    <>
      <label htmlFor="prompt">Prompt</label>
      <textarea
        id="prompt"
        rows={3}
        value={value}
        placeholder={stopped ? 'The session is stopped: resume it first' : 'Ask the agent…'}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={onBlur}
      />
    </>
  );
}

interface ActionsProps {
  sessionId: string;
  turnRunning: boolean;
  sending: boolean;
  interrupt: ReturnType<typeof useAction>;
}

/** Send, and Interrupt while a turn runs, with a word on where a new prompt goes. */
function PromptActions({ sessionId, turnRunning, sending, interrupt }: ActionsProps) {
  return (
    <div className="row">
      <button type="submit" className="primary" disabled={sending}>
        Send
      </button>
      {turnRunning && (
        <button
          type="button"
          disabled={interrupt.busy}
          onClick={() => void interrupt.run(() => post(`/api/sessions/${sessionId}/interrupt`))}
        >
          Interrupt
        </button>
      )}
      <span className="muted">
        {turnRunning ? 'The agent is working; a new prompt waits in the queue.' : ''}
      </span>
    </div>
  );
}

/**
 * The prompt field. While the person types, the socket says so (an agent's ui_open then
 * leaves the page alone); Send runs the prompt now or queues it behind the running turn. Its
 * draft is its own state: a key renders this box only, and what the session view renders
 * for the transcript's changes leaves the box alone (memo).
 */
export const PromptBox = memo(function PromptBox({ sessionId, turnRunning, stopped }: Props) {
  const [text, setText] = useState('');
  const { typed, stopTyping } = useTypingSignal(sessionId);
  const sender = useSendPrompt(sessionId, () => {
    setText('');
    stopTyping();
  });
  const interrupt = useAction();

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const prompt = text.trim();
    if (prompt !== '') void sender.send(prompt);
  };

  return (
    <form className="prompt-box" onSubmit={submit}>
      <PromptField
        value={text}
        stopped={stopped}
        onChange={(value) => {
          setText(value);
          typed(value);
        }}
        onEnter={submit}
        onBlur={stopTyping}
      />
      <PromptActions
        sessionId={sessionId}
        turnRunning={turnRunning}
        sending={sender.busy}
        interrupt={interrupt}
      />
      <ErrorAlert error={sender.error ?? interrupt.error} />
    </form>
  );
});
