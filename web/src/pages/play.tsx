import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { listNegotiations, listProducts, startNegotiation, type Product } from '../api/operations';
import {
  keyFailure,
  NewKey,
  PlayerBar,
  Register,
  SignIn,
  usePlayerStats,
} from '../components/player';
import { usePlayer, type Me } from '../components/player-store';
import { Alert, Page, RetryAlert } from '../components/ui';
import { credits, moment } from '../format';
import { navigate, restoreFocus, savedScroll, setQuery, useLocation } from '../router';
import { problemText } from '../words';

const NONE_OPEN: ReadonlySet<string> = new Set();
const NONE_BLOCKED: ReadonlyMap<string, string> = new Map();

const categories: Product['category'][] = [
  'Electronics',
  'Fashion',
  'Food & Drink',
  'Books',
  'Home & Kitchen',
];

const demandText: Record<Product['demand'], string> = {
  low: 'Selling slowly',
  normal: 'Selling steadily',
  high: 'In demand',
};

export function PlayPage() {
  const me = usePlayer();
  const [stats] = usePlayerStats(me);
  const [newKey, setNewKey] = useState<Me | null>(null);
  // The filters live in the address, so that Back from a negotiation shows the same list.
  const { query } = useLocation();
  const [search, setSearch] = useState(query.get('search') ?? '');
  // A category the list does not offer (a mangled link) is no filter.
  const [category, setCategory] = useState(() => {
    const linked = query.get('category') ?? '';
    return categories.includes(linked as Product['category']) ? linked : '';
  });
  const [inStock, setInStock] = useState(query.get('in_stock') === 'true');
  // Where the list was scrolled when this entry of the history was left (Back, Forward).
  const returnTo = useRef(savedScroll());
  const [products, setProducts] = useState<Product[] | null>(null);
  const [error, setError] = useState('');
  // Asking again after a failure ("Try again") reads the list again with the same filters.
  const [attempt, setAttempt] = useState(0);
  // The product whose negotiation is being opened, and why the last one could not be: shown in
  // its card, by the button that was pressed, not above a list that may be scrolled far away.
  const [opening, setOpening] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ id: string; text: string; full: boolean } | null>(null);
  // The products the player has an active negotiation for: their button goes back to it. (One
  // page of the most there may be: each product has at most one of each.) And the products a
  // negotiation that ended without a deal blocks, each until when. Each is kept with the key it
  // was read with and shown only while that player is signed in: after a sign-out (or in as
  // another player), nothing of the last player's is drawn, not even once.
  const [openRead, setOpen] = useState<{ key: string; ids: ReadonlySet<string> } | null>(null);
  const [blockedRead, setBlocked] = useState<{
    key: string;
    until: ReadonlyMap<string, string>;
  } | null>(null);
  const open = openRead !== null && openRead.key === me?.key ? openRead.ids : NONE_OPEN;
  const blocked =
    blockedRead !== null && blockedRead.key === me?.key ? blockedRead.until : NONE_BLOCKED;
  useEffect(() => {
    if (me === null) return;
    const { key } = me;
    // Answers that arrive after this player's key is gone are dropped.
    let current = true;
    listNegotiations(key, { status: 'active', limit: 100 }).then(
      (page) => {
        if (current) setOpen({ key, ids: new Set(page.items.map((item) => item.product_id)) });
      },
      // Without it, every button says "Haggle", which opens an active negotiation all the same.
      () => undefined,
    );
    listNegotiations(key, { cooling_down: true, limit: 100 }).then(
      (page) => {
        if (!current) return;
        const until = page.items.map(
          (item) => [item.product_id, item.cooldown_until ?? ''] as const,
        );
        setBlocked({ key, until: new Map(until) });
      },
      // Without it, a blocked product's Haggle says why when pressed.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [me?.key]);
  // A product opens again when its time comes, without reading the list again.
  useEffect(() => {
    if (blockedRead === null) return;
    const ends = [...blockedRead.until.values()].map((until) => Date.parse(until));
    if (ends.length === 0) return;
    const timer = setTimeout(
      () => {
        const now = Date.now();
        const left = [...blockedRead.until].filter(([, until]) => Date.parse(until) > now);
        setBlocked({ key: blockedRead.key, until: new Map(left) });
      },
      Math.max(0, Math.min(...ends) - Date.now()) + 500,
    );
    return () => clearTimeout(timer);
  }, [blockedRead]);

  useEffect(() => {
    setQuery({ search, category, in_stock: inStock ? 'true' : '' });
    const timer = setTimeout(() => {
      listProducts({
        ...(search.trim() === '' ? {} : { search: search.trim() }),
        ...(category === '' ? {} : { category: category as Product['category'] }),
        ...(inStock ? { in_stock: true } : {}),
      }).then(
        (found) => {
          setProducts(found);
          setError('');
          const y = returnTo.current;
          returnTo.current = null;
          if (y !== null) {
            requestAnimationFrame(() => {
              window.scrollTo(0, y);
              restoreFocus();
            });
          }
        },
        (failure: unknown) => {
          setError(problemText(failure));
          // Products of another search must not stand under this one as if they matched.
          setProducts(null);
        },
      );
    }, 200);
    return () => clearTimeout(timer);
  }, [search, category, inStock, attempt]);

  const haggle = async (product: Product) => {
    if (me === null || opening !== null) return;
    setOpening(product.id);
    setRefused(null);
    try {
      const session = await startNegotiation(me.key, me.id, product.id);
      navigate(`/play/negotiations/${session.id}`);
    } catch (failure) {
      // An invalid key: signed out, with the reason on the sign-in form that takes its place.
      const said = keyFailure(failure, me.key);
      if (said === null) {
        const full = failure instanceof ApiError && failure.code === 'too_many_active';
        setRefused({ id: product.id, text: problemText(failure), full });
      } else if (said !== '') {
        setRefused({ id: product.id, text: said, full: false });
      }
    } finally {
      setOpening(null);
    }
  };

  return (
    <Page title="Haggle with the seller">
      {me === null ? (
        <>
          <p class="lead">
            Buy products from an automated seller by haggling: up to 10 offers each. You win by
            buying below the market price; your score is the market value you bought per credit
            spent.
          </p>
          <div class="columns">
            <Register onCreated={setNewKey} />
            <SignIn />
          </div>
        </>
      ) : (
        <PlayerBar me={me} stats={stats} />
      )}
      {newKey === null || me === null ? null : (
        <NewKey
          me={newKey}
          onDone={() => {
            setNewKey(null);
            document.getElementById('products-heading')?.focus();
          }}
        />
      )}
      <h2 id="products-heading" tabIndex={-1}>
        Products
      </h2>
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
      {error === '' ? null : (
        <RetryAlert focusTo="product-search" onRetry={() => setAttempt((count) => count + 1)}>
          {error}
        </RetryAlert>
      )}
      <p role="status" class="result-count">
        {products === null
          ? error === ''
            ? 'Loading…'
            : ''
          : products.length === 0
            ? 'No product matches.'
            : `${products.length} product${products.length === 1 ? '' : 's'}`}
      </p>
      {products?.length === 0 && (search.trim() !== '' || category !== '' || inStock) ? (
        <p>
          Names and descriptions are searched.{' '}
          <button
            type="button"
            class="link"
            onClick={() => {
              setSearch('');
              setCategory('');
              setInStock(false);
              // The button goes with the empty answer: focus goes to the search box.
              document.getElementById('product-search')?.focus();
            }}
          >
            Show all products
          </button>
          .
        </p>
      ) : null}
      <ul class="cards products">
        {(products ?? []).map((product) => (
          <li key={product.id} class="card product">
            <img src={product.image_url} alt="" width={112} height={112} loading="lazy" />
            <div>
              <h3>{product.name}</h3>
              <p class="meta">
                <span class="badge">{product.category}</span>
                {product.stock_quantity === 0 ? (
                  <span class="badge badge-warning">Sold out</span>
                ) : (
                  <span class="badge badge-ok">{product.stock_quantity} in stock</span>
                )}
                {product.demand === 'normal' ? null : (
                  <span class="badge">{demandText[product.demand]}</span>
                )}
              </p>
              <p>{product.description}</p>
              <p class="price">Market price {credits(product.market_price)}</p>
              {blocked.has(product.id) ? (
                <p class="hint" id={`blocked-${product.id}`}>
                  Your last negotiation for it ended without a deal: you can haggle for it again at{' '}
                  {moment(blocked.get(product.id) ?? '')}.
                </p>
              ) : null}
              {me === null ? null : (
                <button
                  type="button"
                  disabled={product.stock_quantity === 0 || blocked.has(product.id)}
                  aria-describedby={blocked.has(product.id) ? `blocked-${product.id}` : undefined}
                  aria-disabled={opening !== null}
                  aria-label={`${open.has(product.id) ? 'Continue haggling' : 'Haggle'} for ${product.name}`}
                  data-place={`haggle ${product.id}`}
                  onClick={() => void haggle(product)}
                >
                  {opening === product.id
                    ? 'Opening…'
                    : open.has(product.id)
                      ? 'Continue haggling'
                      : 'Haggle'}
                </button>
              )}
              {refused?.id === product.id ? (
                <Alert focus>
                  {refused.text}
                  {refused.full ? (
                    <>
                      {' '}
                      <a href="/play/negotiations">See your negotiations</a>
                    </>
                  ) : null}
                </Alert>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </Page>
  );
}
