import { useState, type FormEvent } from 'react';
import { useAction } from '../hooks';
import { ErrorAlert } from './FormParts';

interface Props {
  id: string;
  label: string;
  isSet: boolean;
  /** Stores the value as typed; the form empties once it is saved. */
  onSet: (value: string) => Promise<unknown>;
  onClear: () => Promise<unknown>;
}

/**
 * A secret as a form: whether it is set, a password field to set it (a value is never shown
 * back), "Set <label>" and, once set, "Clear <label>". Agents' credentials and GitHub's both.
 */
export function SecretField({ id, label, isSet, onSet, onClear }: Props) {
  const [value, setValue] = useState('');
  const { busy, error, run } = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await onSet(value);
      setValue('');
    });
  };
  return (
    <form className="field credential" onSubmit={submit}>
      <label htmlFor={id}>
        {label} <span className="muted">({isSet ? 'set' : 'not set'})</span>
      </label>
      <div className="row">
        <input
          id={id}
          type="password"
          autoComplete="off"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" disabled={busy || value.trim() === ''}>
          Set {label}
        </button>
        {isSet && (
          <button type="button" disabled={busy} onClick={() => void run(onClear)}>
            Clear {label}
          </button>
        )}
      </div>
      <ErrorAlert error={error} />
    </form>
  );
}
