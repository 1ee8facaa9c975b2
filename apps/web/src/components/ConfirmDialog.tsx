import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { Modal } from './Modal';

/** What a confirmation asks: its question (the dialog's name), what follows, the action's word. */
export interface ConfirmRequest {
  title: string;
  body: string;
  /** The confirming button's text ("Stop session", "Revert", "Delete"). */
  action: string;
}

interface Pending extends ConfirmRequest {
  answer: (yes: boolean) => void;
}

/**
 * A modal dialog (the native <dialog>, opened with showModal: focus stays inside, the page
 * behind is inert) asking before an action that cannot be taken back. Escape and Cancel say
 * no; focus starts on Cancel, so an Enter pressed out of habit does nothing harmful.
 */
function Dialog({ pending, onAnswer }: { pending: Pending; onAnswer: (yes: boolean) => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  return (
    <Modal
      className="confirm"
      labelledBy={`${id}-title`}
      describedBy={`${id}-body`}
      initialFocus={cancel}
      onClose={() => onAnswer(false)}
    >
      <h2 id={`${id}-title`}>{pending.title}</h2>
      <p id={`${id}-body`}>{pending.body}</p>
      <div className="row">
        <button ref={cancel} type="button" onClick={() => onAnswer(false)}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={() => onAnswer(true)}>
          {pending.action}
        </button>
      </div>
    </Modal>
  );
}

/**
 * `confirm(request)` shows the dialog and resolves with the person's answer; `dialog` is the
 * element to render (null while nothing is asked). Focus goes back where it was after.
 */
export function useConfirm(): {
  confirm: (request: ConfirmRequest) => Promise<boolean>;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<Pending | null>(null);
  const confirm = useCallback(
    (request: ConfirmRequest) =>
      new Promise<boolean>((resolve) => setPending({ ...request, answer: resolve })),
    [],
  );
  const onAnswer = (yes: boolean) => {
    pending?.answer(yes);
    setPending(null);
  };
  const dialog = pending && <Dialog pending={pending} onAnswer={onAnswer} />;
  return { confirm, dialog };
}
