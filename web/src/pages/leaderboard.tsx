import { useEffect, useState } from 'preact/hooks';
import { getLeaderboard, type LeaderboardEntry } from '../api/operations';
import { usePlayer } from '../components/player-store';
import { Alert, Page, Saved } from '../components/ui';
import { problemText } from '../words';

export function LeaderboardPage() {
  const me = usePlayer();
  const [entries, setEntries] = useState<LeaderboardEntry[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    getLeaderboard(100).then(setEntries, (failure: unknown) => setError(problemText(failure)));
  }, []);
  return (
    <Page title="Leaderboard">
      <p class="lead">Score: market value bought per credit spent. Equal scores share a rank.</p>
      {error === '' ? null : <Alert>{error}</Alert>}
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
