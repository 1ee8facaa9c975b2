import { useState } from 'react';
import { del, patch } from '../api';
import { useAction } from '../hooks';
import type { QueuedPrompt } from '@sessionboxer/contracts';
import { applyActionResult } from '../view-state';
import { ErrorAlert } from './FormParts';

interface EditProps {
  fieldId: string;
  text: string;
  busy: boolean;
  onText: (text: string) => void;
  onSave: () => void;
  onCancel: () => void;
}

/** The queued prompt's text in a field, with Save and Cancel. */
function QueueEditForm({ fieldId, text, busy, onText, onSave, onCancel }: EditProps) {
  return (
    <form
      className="queue-edit"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <label htmlFor={fieldId}>Edit queued prompt</label>
      <textarea id={fieldId} rows={2} value={text} onChange={(e) => onText(e.target.value)} />
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          Save
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A queued prompt's Edit (in place) and Drop, each answered with the new queue. */
function useQueuedPrompt(sessionId: string, prompt: QueuedPrompt) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(prompt.text);
  const { busy, error, run } = useAction();
  const route = `/api/sessions/${sessionId}/queue/${prompt.id}`;
  const save = () =>
    run(async () => {
      const queue = await patch<QueuedPrompt[]>(route, { text });
      applyActionResult(sessionId, { queue });
      setEditing(false);
    });
  const drop = () =>
    run(async () => applyActionResult(sessionId, { queue: await del<QueuedPrompt[]>(route) }));
  const edit = () => {
    setText(prompt.text);
    setEditing(true);
  };
  const cancel = () => setEditing(false);
  return { editing, text, setText, busy, error, save, drop, edit, cancel };
}

/** One queued prompt, with Edit and Drop. */
function QueueItem({ sessionId, prompt }: { sessionId: string; prompt: QueuedPrompt }) {
  const item = useQueuedPrompt(sessionId, prompt);
  return (
    <li className="queue-item">
      <span className="queue-position">{prompt.position}.</span>
      {item.editing ? (
        <QueueEditForm
          fieldId={`queue-edit-${prompt.id}`}
          text={item.text}
          busy={item.busy}
          onText={item.setText}
          onSave={() => void item.save()}
          onCancel={item.cancel}
        />
      ) : (
        <>
          <span className="queue-text">{prompt.text}</span>
          <span className="row">
            <button type="button" onClick={item.edit}>
              Edit
            </button>
            <button type="button" disabled={item.busy} onClick={() => void item.drop()}>
              Drop
            </button>
          </span>
        </>
      )}
      <ErrorAlert error={item.error} />
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
