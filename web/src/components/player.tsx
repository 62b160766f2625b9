import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { getMe, getStats, registerPlayer, type Player, type Stats } from '../api/operations';
import { credits } from '../format';
import { formFailure, problemText } from '../words';
import { currentPlayer, forget, signIn, signOutReason, type Me } from './player-store';
import { Alert, Confirm, CopyButton, Field, describedBy, focusHeadingSoon } from './ui';

/**
 * What to say of a failure about the key a request was sent with (`null` when it is about
 * something else). A rotated or unknown key cannot play: it is dropped rather than failing on
 * every page, and the sign-in form that takes the page's place says why (`''`). A key this
 * browser has replaced since the request was sent (here or in another tab) is not dropped: the
 * page is drawn afresh for the new one, and the action, which did nothing, may be tried again.
 */
export function keyFailure(failure: unknown, key: string): string | null {
  if (!(failure instanceof ApiError && failure.code === 'unauthorized')) return null;
  const now = currentPlayer();
  if (now !== null && now.key !== key) {
    return 'This browser’s key was replaced meanwhile, so nothing was done: try again.';
  }
  if (now !== null) {
    forget(
      'This browser’s key is no longer valid (it was replaced or is unknown). Sign in with your current key.',
    );
  }
  return '';
}

/**
 * The signed-in player's stats (credits, rank), refreshed on demand after each deal, and why
 * they could not be read ('' when they could).
 */
export function usePlayerStats(me: Me | null): [Stats | null, () => void, string] {
  const [stats, setStats] = useState<Stats | null>(null);
  const [error, setError] = useState('');
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (me === null) {
      setStats(null);
      return;
    }
    // Read again after a failure ("Try again"), the failure goes until the answer says anew.
    setError('');
    getStats(me.key, me.id).then(
      (read) => {
        setStats(read);
        setError('');
      },
      (failure: unknown) => {
        if (keyFailure(failure, me.key) === null) setError(problemText(failure));
      },
    );
  }, [me?.id, me?.key, version]);
  return [stats, () => setVersion((value) => value + 1), error];
}

/** A new key, shown once, with the way to copy it. */
export function NewKey(props: { me: Me; onDone: () => void }) {
  // It replaces the form that had focus: reading goes on from here.
  useEffect(() => {
    document.getElementById('key-heading')?.focus();
  }, []);
  return (
    <section aria-labelledby="key-heading" class="panel panel-key">
      <h2 id="key-heading" tabIndex={-1}>
        Your API key
      </h2>
      <Alert kind="warning">
        <strong>Save this key now.</strong> This browser keeps it until you choose “Sign out” (“Your
        stats” shows it again until then); on another device you need it to sign in.
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
  const [leaving, setLeaving] = useState(false);
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
      <button type="button" class="button-quiet" onClick={() => setLeaving(true)}>
        Sign out
      </button>
      {leaving ? (
        <Confirm
          question="Sign out? This browser forgets your API key, and it cannot be shown again: you sign in again only with the key you saved."
          yes="Yes, sign out"
          no="Stay signed in"
          onYes={() => {
            forget();
            // The bar is gone: reading goes on from the page's heading.
            focusHeadingSoon();
          }}
          onNo={() => setLeaving(false)}
        />
      ) : null}
    </div>
  );
}

export function Register(props: { onCreated: (me: Me) => void }) {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    // One registration at a time: a second press while it is on its way is not a second one.
    if (busy) return;
    setError('');
    setProblems({});
    setBusy(true);
    try {
      const result = await registerPlayer(username.trim(), email.trim());
      // A new player carries its key; an existing one never shows it again. Said at the field
      // that matched it: the username, or else the e-mail (the player has another name).
      if (!('api_key' in result) || typeof result.api_key !== 'string') {
        const named = result.username.toLowerCase() === username.trim().toLowerCase();
        const field = named ? 'username' : 'email';
        setProblems({
          [field]: named
            ? 'This username is taken. If it is yours, sign in with the key you saved when you registered; otherwise choose another.'
            : `This e-mail is already registered, as ${result.username}. Sign in with the key you saved then, or use another e-mail.`,
        });
        document.getElementById(field)?.focus();
        return;
      }
      // Kept in this browser at once: a reload before the key is copied must not lose it.
      const me = { id: result.id, username: result.username, key: result.api_key };
      signIn(me);
      props.onCreated(me);
    } catch (failure) {
      const { error, fields } = formFailure(failure);
      setError(error);
      setProblems(fields);
      const first = Object.keys(fields)[0];
      if (first !== undefined) document.getElementById(first)?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="register-heading" class="panel">
      <h2 id="register-heading">New player</h2>
      <p>You start with 100.00 credits. They never refill, so spend them well.</p>
      {error === '' ? null : <Alert>{error}</Alert>}
      {/* The service checks the fields and says what is wrong next to each, in words. */}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          id="username"
          label="Username"
          hint="3–32 letters A–Z (no accents), digits, _ . or -"
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
        <button type="submit" aria-disabled={busy}>
          {busy ? 'Registering…' : 'Register'}
        </button>
      </form>
    </section>
  );
}

export function SignIn() {
  const [key, setKey] = useState('');
  const [error, setError] = useState(signOutReason);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setError('');
    setBusy(true);
    try {
      const own: Player = await getMe(key);
      signIn({ id: own.id, username: own.username, key: key.trim() });
      // The form is gone: reading goes on from the page's heading.
      focusHeadingSoon();
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.code === 'unauthorized'
          ? 'This key is not valid. Check that you copied all of it, or register a new player.'
          : problemText(failure),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="signin-heading" class="panel">
      <h2 id="signin-heading">I have a key</h2>
      {error === '' ? null : <Alert>{error}</Alert>}
      <form onSubmit={(event) => void submit(event)}>
        <Field
          id="key"
          label="Your API key"
          hint="It starts with hg_. This browser keeps it (in its local storage) until you sign out."
        >
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
        <button type="submit" aria-disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
