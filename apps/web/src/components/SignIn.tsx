import { useState, type FormEvent } from 'react';
import { signIn } from '../auth';
import { useAction } from '../hooks';
import { ErrorAlert } from './FormParts';

/** The form's two fields and what submitting them ends with. */
function useSignInForm() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      if (!(await signIn(username, password))) throw new Error('Wrong user name or password');
    });
  };
  return { username, setUsername, password, setPassword, busy, error, submit };
}

/** The one local account's sign-in (docs/web-ui.md "Signing in"). */
export function SignIn() {
  const form = useSignInForm();
  return (
    <main className="sign-in">
      <form className="card sign-in-form" onSubmit={form.submit}>
        <h1>Sign in</h1>
        <p className="muted">Sessionboxer</p>
        <label htmlFor="sign-in-username">Username</label>
        <input
          id="sign-in-username"
          name="username"
          autoComplete="username"
          value={form.username}
          onChange={(e) => form.setUsername(e.target.value)}
          required
        />
        <label htmlFor="sign-in-password">Password</label>
        <input
          id="sign-in-password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={form.password}
          onChange={(e) => form.setPassword(e.target.value)}
          required
        />
        <ErrorAlert error={form.error} />
        <button type="submit" className="primary" disabled={form.busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
