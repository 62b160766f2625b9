import { signOutReason } from '../components/player-store';
import { Alert, Page } from '../components/ui';

/** What a game page shows to someone who has not signed in: the way to do so. */
export function SignInFirst(props: { title: string }) {
  return (
    <Page title={props.title}>
      {signOutReason() === '' ? null : <Alert kind="info">{signOutReason()}</Alert>}
      <p>
        This page belongs to a player. <a href="/play">Register or sign in with your key</a> to see
        it.
      </p>
    </Page>
  );
}
