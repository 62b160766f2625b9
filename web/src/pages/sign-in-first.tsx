import { Page } from '../components/ui';

/** What a game page shows to someone who has not signed in: the way to do so. */
export function SignInFirst(props: { title: string }) {
  return (
    <Page title={props.title}>
      <p>
        This page belongs to a player. <a href="/play">Register or sign in with your key</a> to see
        it.
      </p>
    </Page>
  );
}
