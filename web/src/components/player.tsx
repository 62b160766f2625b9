import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { getMe, getStats, registerPlayer, type Player, type Stats } from '../api/operations';
import { credits } from '../format';
import { fieldProblems, problemText } from '../words';
import { forget, signIn, type Me } from './player-store';
import { Alert, CopyButton, Field, describedBy } from './ui';

/** The signed-in player's stats (credits, rank), refreshed on demand after each deal. */
export function usePlayerStats(me: Me | null): [Stats | null, () => void] {
  const [stats, setStats] = useState<Stats | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (me === null) {
      setStats(null);
      return;
    }
    getStats(me.key, me.id).then(setStats, (failure: unknown) => {
      // A rotated or unknown key cannot play: drop it rather than fail on every page.
      if (failure instanceof ApiError && failure.code === 'unauthorized') forget();
    });
  }, [me?.id, me?.key, version]);
  return [stats, () => setVersion((value) => value + 1)];
}

/** A new key, shown once, with the way to copy it. */
export function NewKey(props: { me: Me; onDone: () => void }) {
  return (
    <section aria-labelledby="key-heading" class="panel panel-key">
      <h2 id="key-heading">Your API key</h2>
      <Alert kind="warning">
        <strong>Save this key now: it is shown only once.</strong> This browser keeps it until you
        choose “Sign out”; on another device you need it to sign in.
      </Alert>
      <p class="secret-line">
        <code id="api-key">{props.me.key}</code> <CopyButton text={props.me.key} label="Copy key" />
      </p>
      <button type="button" onClick={props.onDone}>
        I have saved it: start playing
      </button>
    </section>
  );
}

/** Who is playing, with their credits and the way to sign out. */
export function PlayerBar(props: { me: Me; stats: Stats | null }) {
  return (
    <div class="player-bar">
      <p>
        Playing as <strong>{props.me.username}</strong>
        {props.stats === null ? null : (
          <>
            {' '}
            · <span class="credits">{credits(props.stats.credits)} credits</span>
            {props.stats.rank === null ? null : <> · rank {props.stats.rank}</>}
          </>
        )}
      </p>
      <button type="button" class="button-quiet" onClick={forget}>
        Sign out
      </button>
    </div>
  );
}

export function Register(props: { onCreated: (me: Me) => void }) {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});

  const submit = async (event: Event) => {
    event.preventDefault();
    setError('');
    setProblems({});
    try {
      const result = await registerPlayer(username.trim(), email.trim());
      // A new player carries its key; an existing one never shows it again.
      if (!('api_key' in result) || typeof result.api_key !== 'string') {
        setError(
          'A player with this username or e-mail exists already. Sign in with the key you saved when you registered.',
        );
        return;
      }
      // Kept in this browser at once: a reload before the key is copied must not lose it.
      const me = { id: result.id, username: result.username, key: result.api_key };
      signIn(me);
      props.onCreated(me);
    } catch (failure) {
      setError(problemText(failure));
      setProblems(fieldProblems(failure));
    }
  };

  return (
    <section aria-labelledby="register-heading" class="panel">
      <h2 id="register-heading">New player</h2>
      <p>You start with 100.00 credits. They never refill, so spend them well.</p>
      {error === '' ? null : <Alert>{error}</Alert>}
      <form onSubmit={(event) => void submit(event)}>
        <Field
          id="username"
          label="Username"
          hint="3–32 letters, digits, _ . or -"
          error={problems.username}
        >
          <input
            id="username"
            type="text"
            required
            minLength={3}
            maxLength={32}
            pattern="[A-Za-z0-9_.\-]+"
            autocomplete="username"
            value={username}
            onInput={(event) => setUsername(event.currentTarget.value)}
            {...describedBy('username', true, problems.username)}
          />
        </Field>
        <Field id="email" label="E-mail" error={problems.email}>
          <input
            id="email"
            type="email"
            required
            maxLength={254}
            autocomplete="email"
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
            {...describedBy('email', false, problems.email)}
          />
        </Field>
        <button type="submit">Register</button>
      </form>
    </section>
  );
}

export function SignIn() {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    setError('');
    try {
      const own: Player = await getMe(key);
      signIn({ id: own.id, username: own.username, key: key.trim() });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.code === 'unauthorized'
          ? 'This key is not valid. Check that you copied all of it, or register a new player.'
          : problemText(failure),
      );
    }
  };
  return (
    <section aria-labelledby="signin-heading" class="panel">
      <h2 id="signin-heading">I have a key</h2>
      {error === '' ? null : <Alert>{error}</Alert>}
      <form onSubmit={(event) => void submit(event)}>
        <Field id="key" label="Your API key" hint="It starts with hg_">
          <input
            id="key"
            type="password"
            required
            autocomplete="off"
            value={key}
            onInput={(event) => setKey(event.currentTarget.value)}
            {...describedBy('key', true, undefined)}
          />
        </Field>
        <button type="submit">Sign in</button>
      </form>
    </section>
  );
}
