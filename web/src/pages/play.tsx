import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, bearer, call, credits, message, type Player, type Product } from '../api';
import { forget, rememberSession, signIn, usePlayer, type Me } from '../player';
import { navigate } from '../router';
import { Alert, CopyButton, Field, Page, describedBy } from '../ui';

/** The signed-in player's record (credits change with every deal), refreshed on demand. */
export function usePlayerRecord(me: Me | null): [Player | null, () => void] {
  const [player, setPlayer] = useState<Player | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (me === null) {
      setPlayer(null);
      return;
    }
    call(
      api.GET('/api/players/{id}', { params: { path: { id: me.id } }, headers: bearer(me.key) }),
    ).then(setPlayer, (failure: unknown) => {
      // A rotated or unknown key cannot play: drop it rather than fail on every page.
      if (failure instanceof ApiError && failure.code === 'unauthorized') forget();
    });
  }, [me?.id, me?.key, version]);
  return [player, () => setVersion((value) => value + 1)];
}

/** A new key, shown once, with the way to copy it. */
function NewKey(props: { me: Me; onDone: () => void }) {
  return (
    <section aria-labelledby="key-heading" class="panel">
      <h2 id="key-heading">Your API key</h2>
      <Alert kind="warning">
        <strong>Save this key now: it is shown only once.</strong> This browser keeps it until you
        choose “Forget this key”; on any other device you need it to sign in.
      </Alert>
      <p>
        <code id="api-key">{props.me.key}</code> <CopyButton text={props.me.key} label="Copy key" />
      </p>
      <button type="button" onClick={props.onDone}>
        I have saved it: start playing
      </button>
    </section>
  );
}

/** Who is playing, with their credits and the way to forget the key. */
export function PlayerBar(props: { me: Me; player: Player | null }) {
  return (
    <div class="player-bar">
      <p>
        Playing as <strong>{props.me.username}</strong>
        {props.player === null ? null : (
          <>
            {' '}
            · <span class="credits">{credits(props.player.credits)} credits</span>
          </>
        )}
      </p>
      <button type="button" class="button-quiet" onClick={forget}>
        Forget this key
      </button>
    </div>
  );
}

function Register(props: { onCreated: (me: Me) => void }) {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});

  const submit = async (event: Event) => {
    event.preventDefault();
    setError('');
    setProblems({});
    try {
      const result = await call(api.POST('/api/players', { body: { username, email } }));
      // 201 carries the new key; 200 means the player exists and its key is never shown again.
      const key = (result as { api_key?: string }).api_key;
      if (key === undefined) {
        setError('That player exists already. Sign in with the key you received when registering.');
        return;
      }
      // Kept in this browser at once: a reload before the key is copied must not lose it.
      const me = { id: result.id, username: result.username, key };
      signIn(me);
      props.onCreated(me);
    } catch (failure) {
      setError(message(failure));
      if (failure instanceof ApiError) {
        setProblems(
          Object.fromEntries(
            failure.details.map((detail) => [detail.field, `This ${detail.message}.`]),
          ),
        );
      }
    }
  };

  return (
    <section aria-labelledby="register-heading" class="panel">
      <h2 id="register-heading">New player</h2>
      <p>You start with 100.00 credits. They never refill.</p>
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

function SignIn() {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    setError('');
    try {
      // Only your own record carries your e-mail: that is how the key's owner is found.
      const players = await call(api.GET('/api/players', { headers: bearer(key.trim()) }));
      const own = players.find((player) => player.email !== null);
      if (own === undefined) throw new Error('This key works, but its player could not be found.');
      signIn({ id: own.id, username: own.username, key: key.trim() });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.code === 'unauthorized'
          ? 'This key is not valid. Check it, or register a new player.'
          : message(failure),
      );
    }
  };
  return (
    <section aria-labelledby="signin-heading" class="panel">
      <h2 id="signin-heading">I have a key</h2>
      {error === '' ? null : <Alert>{error}</Alert>}
      <form onSubmit={(event) => void submit(event)}>
        <Field id="key" label="API key (hg_…)">
          <input
            id="key"
            type="password"
            required
            autocomplete="off"
            value={key}
            onInput={(event) => setKey(event.currentTarget.value)}
          />
        </Field>
        <button type="submit">Sign in</button>
      </form>
    </section>
  );
}

const categories = ['Electronics', 'Fashion', 'Food & Drink', 'Books', 'Home & Kitchen'] as const;

export function PlayPage() {
  const me = usePlayer();
  const [player] = usePlayerRecord(me);
  const [newKey, setNewKey] = useState<Me | null>(null);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [inStock, setInStock] = useState(false);
  const [products, setProducts] = useState<Product[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => {
      call(
        api.GET('/api/products', {
          params: {
            query: {
              ...(search.trim() === '' ? {} : { search: search.trim() }),
              ...(category === '' ? {} : { category: category as Product['category'] }),
              ...(inStock ? { in_stock: true } : {}),
            },
          },
        }),
      ).then(
        (found) => {
          setProducts(found);
          setError('');
        },
        (failure: unknown) => setError(message(failure)),
      );
    }, 200);
    return () => clearTimeout(timer);
  }, [search, category, inStock]);

  const haggle = async (product: Product) => {
    if (me === null) return;
    setError('');
    try {
      const session = await call(
        api.POST('/api/haggle/start', {
          body: { player_id: me.id, product_id: product.id },
          headers: bearer(me.key),
        }),
      );
      rememberSession(me.id, session.id);
      navigate(`/play/negotiations/${session.id}`);
    } catch (failure) {
      setError(message(failure));
    }
  };

  return (
    <Page title="Haggle with the seller">
      {me === null ? (
        <>
          <p class="lead">
            Buy products from an automated seller by haggling: up to 10 offers each. Your score is
            the market value you bought per credit spent.
          </p>
          <div class="columns">
            <Register onCreated={setNewKey} />
            <SignIn />
          </div>
        </>
      ) : (
        <PlayerBar me={me} player={player} />
      )}
      {newKey === null || me === null ? null : (
        <NewKey me={newKey} onDone={() => setNewKey(null)} />
      )}
      <h2>Products</h2>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for="product-search">Search products</label>
          <input
            id="product-search"
            type="search"
            maxLength={100}
            value={search}
            onInput={(event) => setSearch(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="product-category">Category</label>
          <select
            id="product-category"
            value={category}
            onChange={(event) => setCategory(event.currentTarget.value)}
          >
            <option value="">All</option>
            {categories.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field checkbox">
          <input
            id="in-stock"
            type="checkbox"
            checked={inStock}
            onChange={(event) => setInStock(event.currentTarget.checked)}
          />
          <label for="in-stock">In stock only</label>
        </div>
      </form>
      {error === '' ? null : <Alert>{error}</Alert>}
      <p role="status" class="result-count">
        {products === null
          ? 'Loading…'
          : `${products.length} product${products.length === 1 ? '' : 's'}`}
      </p>
      <ul class="cards products">
        {(products ?? []).map((product) => (
          <li key={product.id} class="card">
            <img src={product.image_url} alt="" width={96} height={96} />
            <div>
              <h3>{product.name}</h3>
              <p class="meta">
                <span class="badge">{product.category}</span>
                {product.stock_quantity === 0 ? (
                  <span class="badge badge-warning">Out of stock</span>
                ) : (
                  <span class="badge badge-ok">{product.stock_quantity} in stock</span>
                )}
              </p>
              <p>{product.description}</p>
              <p class="price">Market price {credits(product.market_price)}</p>
              {me === null ? null : (
                <button
                  type="button"
                  disabled={product.stock_quantity === 0}
                  aria-label={`Haggle for ${product.name}`}
                  onClick={() => void haggle(product)}
                >
                  Haggle
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </Page>
  );
}
