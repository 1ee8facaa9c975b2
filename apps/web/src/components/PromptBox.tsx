import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { get, post } from '../api';
import { useAction } from '../hooks';
import { live } from '../live';
import type { QueuedPrompt } from '../types';
import { applyActionResult } from '../view-state';

/** How long after the last key the person counts as no longer typing. */
const TYPING_IDLE_MS = 2500;

interface Props {
  sessionId: string;
  turnRunning: boolean;
  stopped: boolean;
}

/**
 * The prompt field. While the person types, the socket says so (an agent's ui_open then
 * leaves the page alone); Send runs the prompt now or queues it behind the running turn.
 */
export function PromptBox({ sessionId, turnRunning, stopped }: Props) {
  const [text, setText] = useState('');
  const send = useAction();
  const interrupt = useAction();
  const idle = useRef<number | undefined>(undefined);

  const stopTyping = () => {
    window.clearTimeout(idle.current);
    live.typing(false);
  };
  useEffect(() => stopTyping, [sessionId]);

  const onChange = (value: string) => {
    setText(value);
    live.typing(value !== '');
    window.clearTimeout(idle.current);
    idle.current = window.setTimeout(() => live.typing(false), TYPING_IDLE_MS);
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const prompt = text.trim();
    if (prompt === '') return;
    void send.run(async () => {
      const receipt = await post<{ status: string }>(`/api/sessions/${sessionId}/prompts`, {
        text: prompt,
      });
      setText('');
      stopTyping();
      if (receipt.status === 'queued') {
        const queue = await get<QueuedPrompt[]>(`/api/sessions/${sessionId}/queue`);
        applyActionResult(sessionId, { queue });
      }
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) submit(e);
  };

  return (
    <form className="prompt-box" onSubmit={submit}>
      <label htmlFor="prompt">Prompt</label>
      <textarea
        id="prompt"
        rows={3}
        value={text}
        placeholder={stopped ? 'The session is stopped: resume it first' : 'Ask the agent…'}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={stopTyping}
      />
      <div className="row">
        <button type="submit" className="primary" disabled={send.busy}>
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
      {(send.error ?? interrupt.error) && (
        <p role="alert" className="error">
          {send.error ?? interrupt.error}
        </p>
      )}
    </form>
  );
}
