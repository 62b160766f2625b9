import { Page } from '../components/ui';

/** Any address the app does not know: say so, and offer every way onward. */
export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p class="lead">
        There is no page at this address. It may have moved, or the link is incomplete.
      </p>
      <ul class="links">
        <li>
          <a href="/">Start page</a>
        </li>
        <li>
          <a href="/catalog">Search the catalog</a>
        </li>
        <li>
          <a href="/play">Play the haggling game</a>
        </li>
        <li>
          <a href="/leaderboard">Leaderboard</a>
        </li>
      </ul>
    </Page>
  );
}
