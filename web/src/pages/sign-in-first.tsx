import { Fragment, type VNode } from 'preact';
import { SignIn } from '../components/player';
import { usePlayer, type Me } from '../components/player-store';
import { Page } from '../components/ui';

/**
 * What a game page shows to someone who has not signed in: the form to do so here, so that a
 * link to the page (a negotiation, the stats) leads to it once signed in. Why a player was signed
 * out, if they were, is said on the form.
 */
export function SignInFirst(props: { title: string }) {
  return (
    <Page title={props.title}>
      <p>
        This page belongs to a player: sign in with your key to see it. New here?{' '}
        <a href="/play">Register on the game page</a>.
      </p>
      <div class="columns">
        <SignIn />
      </div>
    </Page>
  );
}

/**
 * A game page for the player signed in, drawn afresh for each key, so that nothing read with
 * one player's key (a negotiation, a list, a timer) stays for the next to sign in; the sign-in
 * form while no one is.
 */
export function ForPlayer(props: { title: string; page: (me: Me) => VNode }) {
  const me = usePlayer();
  if (me === null) return <SignInFirst title={props.title} />;
  return <Fragment key={me.key}>{props.page(me)}</Fragment>;
}
