import { render } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { usePlayer } from './player';
import { match, useLocation } from './router';
import { AccountPage, LeaderboardPage, NegotiationsPage } from './pages/account';
import { CatalogPage } from './pages/catalog';
import { ListingPage } from './pages/listing';
import { NegotiationPage } from './pages/negotiation';
import { PlayPage } from './pages/play';
import { MyRequestPage, NewRequestPage } from './pages/requests';
import { Page } from './ui';
import './styles.css';

function route(path: string) {
  if (path === '/') return <CatalogPage />;
  const listing = match('/catalog/:id', path);
  if (listing !== null) return <ListingPage id={listing.id ?? ''} key={listing.id} />;
  if (match('/requests/new', path) !== null) return <NewRequestPage />;
  if (match('/requests/mine', path) !== null) return <MyRequestPage />;
  if (match('/play', path) !== null) return <PlayPage />;
  if (match('/play/negotiations', path) !== null) return <NegotiationsPage />;
  const session = match('/play/negotiations/:id', path);
  if (session !== null) return <NegotiationPage id={session.id ?? ''} key={session.id} />;
  if (match('/play/account', path) !== null) return <AccountPage />;
  if (match('/leaderboard', path) !== null) return <LeaderboardPage />;
  return (
    <Page title="Page not found">
      <p>
        There is no page here. <a href="/">Search the catalog</a> or <a href="/play">play</a>.
      </p>
    </Page>
  );
}

const sections = [
  {
    href: '/',
    label: 'Catalog',
    active: (path: string) => path === '/' || path.startsWith('/catalog/'),
  },
  {
    href: '/requests/new',
    label: 'File a request',
    active: (path: string) => path === '/requests/new',
  },
  {
    href: '/requests/mine',
    label: 'My request',
    active: (path: string) => path === '/requests/mine',
  },
  { href: '/play', label: 'Play', active: (path: string) => path === '/play' },
  {
    href: '/play/negotiations',
    label: 'Negotiations',
    game: true,
    active: (path: string) => path.startsWith('/play/negotiations'),
  },
  {
    href: '/play/account',
    label: 'My stats',
    game: true,
    active: (path: string) => path === '/play/account',
  },
  { href: '/leaderboard', label: 'Leaderboard', active: (path: string) => path === '/leaderboard' },
];

function App() {
  const { path } = useLocation();
  const me = usePlayer();
  const firstPage = useRef(true);
  // After moving to another page, start reading (and tabbing) from its heading.
  useEffect(() => {
    if (firstPage.current) firstPage.current = false;
    else document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <a href="/" class="brand">
          Bazaar
        </a>
        <nav aria-label="Main">
          <ul>
            {sections
              .filter((section) => section.game !== true || me !== null)
              .map((section) => (
                <li key={section.href}>
                  <a href={section.href} aria-current={section.active(path) ? 'page' : undefined}>
                    {section.label}
                  </a>
                </li>
              ))}
          </ul>
        </nav>
      </header>
      <main id="main">{route(path)}</main>
      <footer>
        <p>
          For programs: <a href="/docs">API reference</a> ·{' '}
          <a href="/openapi.json">OpenAPI document</a>
        </p>
      </footer>
    </>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
