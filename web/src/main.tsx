import { Fragment, render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { usePlayer } from './components/player-store';
import { AccountPage } from './pages/account';
import { CatalogPage } from './pages/catalog';
import { HomePage } from './pages/home';
import { LeaderboardPage } from './pages/leaderboard';
import { ListingPage } from './pages/listing';
import { NegotiationPage } from './pages/negotiation';
import { NegotiationsPage } from './pages/negotiations';
import { NotFoundPage } from './pages/not-found';
import { PlayPage } from './pages/play';
import { MyRequestPage } from './pages/request-mine';
import { NewRequestPage } from './pages/request-new';
import { PAGES, matchPage, useLocation, type PageName } from './router';
import './styles.css';

/** What each page of the app draws; the addresses themselves are in `PAGES`. */
const draw: Record<PageName, (params: Record<string, string>) => preact.JSX.Element> = {
  home: () => <HomePage />,
  catalog: () => <CatalogPage />,
  listing: ({ id = '' }) => <ListingPage id={id} key={id} />,
  newRequest: () => <NewRequestPage />,
  myRequest: () => <MyRequestPage />,
  play: () => <PlayPage />,
  negotiations: () => <NegotiationsPage />,
  negotiation: ({ id = '' }) => <NegotiationPage id={id} key={id} />,
  account: () => <AccountPage />,
  leaderboard: () => <LeaderboardPage />,
};

/** The main navigation: a page of each area, the player's own pages once signed in. */
const sections: { page: PageName; label: string; game?: true; also?: PageName[] }[] = [
  { page: 'catalog', label: 'Catalog', also: ['listing'] },
  { page: 'newRequest', label: 'Ask for a tool' },
  { page: 'myRequest', label: 'My request' },
  { page: 'play', label: 'Play' },
  { page: 'negotiations', label: 'Negotiations', game: true, also: ['negotiation'] },
  { page: 'account', label: 'My stats', game: true },
  { page: 'leaderboard', label: 'Leaderboard' },
];

function App() {
  const { path, visit } = useLocation();
  const me = usePlayer();
  // The menu (narrow screens) is open on the page it was opened on: moving to another page
  // closes it in the same drawing as the new page, not in one after it.
  const [menuOpenOn, setMenuOpenOn] = useState<number | null>(null);
  const menuOpen = menuOpenOn === visit;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? visit : null);
  const firstPage = useRef(true);
  const current = matchPage(path);
  // After moving to another page, start reading (and tabbing) from its heading.
  useEffect(() => {
    if (firstPage.current) firstPage.current = false;
    else document.querySelector<HTMLElement>('main h1')?.focus();
  }, [visit]);
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(event) => {
          // Move focus as well as the view, so the next Tab starts inside the content.
          event.preventDefault();
          document.querySelector<HTMLElement>('main h1')?.focus();
        }}
      >
        Skip to content
      </a>
      <header
        class="site-header"
        onKeyDown={(event) => {
          // Escape closes the open menu (on narrow screens) and leaves focus on its button.
          if (event.key === 'Escape' && menuOpen) {
            setMenuOpen(false);
            document.querySelector<HTMLElement>('.menu-button')?.focus();
          }
        }}
      >
        <a href={PAGES.home} class="brand">
          <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
            <path d="M4 12 L8 4 H24 L28 12 Z" fill="currentColor" />
            <path d="M6 14 H26 V28 H6 Z" fill="none" stroke="currentColor" stroke-width="3" />
            <path d="M13 28 V20 H19 V28" fill="currentColor" />
          </svg>
          Bazaar
        </a>
        <button
          type="button"
          class="menu-button"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <nav aria-label="Main" id="main-nav" class={menuOpen ? 'open' : undefined}>
          <ul>
            {sections
              .filter((section) => section.game !== true || me !== null)
              .map((section) => {
                const here =
                  current !== null &&
                  (current.page === section.page || section.also?.includes(current.page) === true);
                return (
                  <li key={section.page}>
                    <a href={PAGES[section.page]} aria-current={here ? 'page' : undefined}>
                      {section.label}
                    </a>
                  </li>
                );
              })}
          </ul>
        </nav>
      </header>
      <main id="main">
        {/* Keyed by the visit: a link to the page already shown (Catalog from a search) shows
            it as the address says, not as it was left. */}
        <Fragment key={visit}>
          {current === null ? <NotFoundPage /> : draw[current.page](current.params)}
        </Fragment>
      </main>
      <footer>
        <p>
          For programs: <a href="/docs">API reference</a> ·{' '}
          <a href="/openapi.json">OpenAPI document</a> · <a href="/llms.txt">llms.txt</a>
        </p>
      </footer>
    </>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
