import { useState } from 'preact/hooks';
import { Page } from '../components/ui';
import { navigate } from '../router';

/** The front door: what the two areas are, and a way into each. */
export function HomePage() {
  const [need, setNeed] = useState('');
  return (
    <Page title="Find the right tool, then haggle for a bargain">
      <p class="lead">
        Bazaar has two halves: a catalog of real tools, agents and frameworks with honest facts, and
        a game where you haggle with an automated seller.
      </p>
      <div class="areas">
        <section class="area area-catalog" aria-labelledby="catalog-heading">
          <h2 id="catalog-heading">The capability catalog</h2>
          <p>
            Describe what you need in your own words. Every listing says where its facts come from,
            how authentication works and what it cannot do.
          </p>
          <form
            role="search"
            onSubmit={(event) => {
              event.preventDefault();
              navigate(
                `/catalog${need.trim() === '' ? '' : `?q=${encodeURIComponent(need.trim())}`}`,
              );
            }}
          >
            <label for="need">What do you need?</label>
            <div class="inline-form">
              <input
                id="need"
                type="search"
                maxLength={300}
                placeholder="e.g. let an agent drive a browser"
                value={need}
                onInput={(event) => setNeed(event.currentTarget.value)}
              />
              <button type="submit">Search</button>
            </div>
          </form>
          <p>
            <a href="/catalog">Browse everything</a> ·{' '}
            <a href="/requests/new">Ask for something missing</a>
          </p>
        </section>
        <section class="area area-game" aria-labelledby="game-heading">
          <h2 id="game-heading">The haggling game</h2>
          <p>
            Start with 100.00 credits and up to ten offers per product. Buy below the market price:
            the leaderboard ranks players by market value bought per credit spent.
          </p>
          <p class="actions">
            <a class="button" href="/play">
              Play
            </a>
            <a href="/leaderboard">See the leaderboard</a>
          </p>
        </section>
      </div>
      <section class="area area-programs" aria-labelledby="programs-heading">
        <h2 id="programs-heading">For programs and AI agents</h2>
        <p>
          Everything here is also an HTTP API: the <a href="/docs">API reference</a>, the{' '}
          <a href="/openapi.json">OpenAPI document</a>, an MCP server and{' '}
          <a href="/llms.txt">llms.txt</a>.
        </p>
      </section>
    </Page>
  );
}
