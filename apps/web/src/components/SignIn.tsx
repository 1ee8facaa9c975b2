import { useState, type FormEvent } from 'react';
import { errorText } from '../api';
import { signIn } from '../auth';

/** The one local account's sign-in (docs/web-ui.md "Signing in"). */
export function SignIn() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (!(await signIn(username, password))) setError('Wrong user name or password');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <form className="card sign-in-form" onSubmit={(e) => void submit(e)}>
        <h1>Sign in</h1>
        <p className="muted">Sessionboxer</p>
        <label htmlFor="sign-in-username">Username</label>
        <input
          id="sign-in-username"
          name="username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          required
        />
        <label htmlFor="sign-in-password">Password</label>
        <input
          id="sign-in-password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
