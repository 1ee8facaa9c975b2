import { useState } from 'react';
import { del, patch } from '../api';
import { useAction } from '../hooks';
import type { QueuedPrompt } from '../types';
import { applyActionResult } from '../view-state';

function QueueItem({ sessionId, prompt }: { sessionId: string; prompt: QueuedPrompt }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(prompt.text);
  const { busy, error, run } = useAction();
  const route = `/api/sessions/${sessionId}/queue/${prompt.id}`;
  const fieldId = `queue-edit-${prompt.id}`;

  const save = () =>
    run(async () => {
      const queue = await patch<QueuedPrompt[]>(route, { text });
      applyActionResult(sessionId, { queue });
      setEditing(false);
    });
  const drop = () =>
    run(async () => applyActionResult(sessionId, { queue: await del<QueuedPrompt[]>(route) }));

  return (
    <li className="queue-item">
      <span className="queue-position">{prompt.position}.</span>
      {editing ? (
        <form
          className="queue-edit"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label htmlFor={fieldId}>Edit queued prompt</label>
          <textarea id={fieldId} rows={2} value={text} onChange={(e) => setText(e.target.value)} />
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <span className="queue-text">{prompt.text}</span>
      )}
      {!editing && (
        <span className="row">
          <button
            type="button"
            onClick={() => {
              setText(prompt.text);
              setEditing(true);
            }}
          >
            Edit
          </button>
          <button type="button" disabled={busy} onClick={() => void drop()}>
            Drop
          </button>
        </span>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </li>
  );
}

/** The prompts waiting for the running turn, in the order they will run. */
export function Queue({ sessionId, queue }: { sessionId: string; queue: QueuedPrompt[] }) {
  return (
    <section className="queue" aria-labelledby="queue-heading">
      <h2 id="queue-heading">Queue</h2>
      {queue.length === 0 && <p className="muted">Nothing queued.</p>}
      <ul aria-label="Queue">
        {queue.map((prompt) => (
          <QueueItem key={prompt.id} sessionId={sessionId} prompt={prompt} />
        ))}
      </ul>
    </section>
  );
}
