import { useEffect, useState } from 'preact/hooks';
import { getLeaderboard, type LeaderboardEntry } from '../api/operations';
import { usePlayer } from '../components/player-store';
import { Page, RetryAlert, Saved } from '../components/ui';
import { problemText } from '../words';

export function LeaderboardPage() {
  const me = usePlayer();
  const [entries, setEntries] = useState<LeaderboardEntry[] | null>(null);
  const [error, setError] = useState('');
  // Asked again ("Try again"), the page says "Loading…" until the answer: an alert that comes
  // back is read out again, where one left standing would say nothing of the new attempt.
  const load = () => {
    setError('');
    getLeaderboard(100).then(setEntries, (failure: unknown) => setError(problemText(failure)));
  };
  useEffect(load, []);
  return (
    <Page title="Leaderboard">
      <p class="lead">Score: market value bought per credit spent. Equal scores share a rank.</p>
      {error === '' ? null : <RetryAlert onRetry={load}>{error}</RetryAlert>}
      {entries === null ? (
        error === '' ? (
          <p>Loading…</p>
        ) : null
      ) : entries.length === 0 ? (
        <p>
          Nobody has bought anything yet. <a href="/play">Be the first.</a>
        </p>
      ) : (
        <div class="table-wrap stack-on-phone">
          <table>
            <caption class="visually-hidden">Players by score</caption>
            <thead>
              <tr>
                <th scope="col" class="number">
                  Rank
                </th>
                <th scope="col">Player</th>
                <th scope="col" class="number">
                  Score
                </th>
                <th scope="col" class="number">
                  Items
                </th>
                <th scope="col" class="number">
                  Saved
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} class={entry.id === me?.id ? 'me' : undefined}>
                  <td data-label="Rank" class="number">
                    {entry.rank}
                  </td>
                  <th scope="row">
                    {entry.username}
                    {entry.id === me?.id ? ' (you)' : ''}
                  </th>
                  <td data-label="Score" class="number">
                    {entry.score.toFixed(2)}
                  </td>
                  <td data-label="Items" class="number">
                    {entry.items_purchased}
                  </td>
                  <td data-label="Saved" class="number">
                    <Saved amount={entry.total_savings} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
