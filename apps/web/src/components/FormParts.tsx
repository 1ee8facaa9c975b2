import type { ReactNode } from 'react';

/** What an action ended with, read out at once (nothing while there is no error). */
export function ErrorAlert({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {error}
    </p>
  );
}

interface SaveRowProps {
  /** The submit button's text. */
  label: string;
  busy: boolean;
  /** What the status beside the button says ("Saved", …). */
  status: string;
  primary?: boolean;
}

/** A form's submit button with its status line beside it. */
export function SaveRow({ label, busy, status, primary = true }: SaveRowProps) {
  return (
    <div className="row">
      <button type="submit" className={primary ? 'primary' : undefined} disabled={busy}>
        {label}
      </button>
      <span role="status" className="muted">
        {status}
      </span>
    </div>
  );
}

interface CheckboxFieldProps {
  id: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}

/** A checkbox with its label after it; the label is the children. */
export function CheckboxField({ id, checked, disabled, onChange, children }: CheckboxFieldProps) {
  return (
    <div className="field checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{children}</label>
    </div>
  );
}
