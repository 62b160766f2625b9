import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { credits } from '../format';

export function Page(props: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Bazaar`;
  }, [props.title]);
  return (
    <>
      <h1 tabIndex={-1}>{props.title}</h1>
      {props.children}
    </>
  );
}

/**
 * Moves focus to the page's heading once the page has drawn itself again: after signing in or
 * out, the heading may be a new one (a game page and its sign-in form are different pages).
 */
export function focusHeadingSoon(): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1')?.focus());
}

/** Copies a secret to the clipboard and says so; the text stays selectable for older browsers. */
export function CopyButton(props: { text: string; label: string }) {
  const [done, setDone] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setDone('Copied.');
    } catch {
      setDone('Copying is blocked here: select the text and copy it.');
    }
  };
  return (
    <span class="copy">
      <button type="button" onClick={() => void copy()}>
        {props.label}
      </button>
      <span role="status">{done}</span>
    </span>
  );
}

export function Alert(props: {
  kind?: 'error' | 'info' | 'success' | 'warning';
  /**
   * Takes focus as it appears: for news that replaces what had focus (a deleted request, an
   * ended negotiation) or that would otherwise appear out of view (an error far from its button).
   */
  focus?: boolean;
  children: ComponentChildren;
}) {
  const kind = props.kind ?? 'error';
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (props.focus === true) box.current?.focus();
  }, [props.focus]);
  return (
    <div
      ref={box}
      class={`alert alert-${kind}`}
      role={kind === 'error' ? 'alert' : 'status'}
      tabIndex={props.focus === true ? -1 : undefined}
    >
      {props.children}
    </div>
  );
}

/**
 * A read that failed but may work when asked again (the service unreachable or failing, not a
 * thing that does not exist): the reason, with "Try again". The button goes with the alert once
 * the read works, so focus moves first to what stays: the element with id `focusTo`, or the
 * page's heading.
 */
export function RetryAlert(props: {
  onRetry: () => void;
  focusTo?: string;
  children: ComponentChildren;
}) {
  const retry = () => {
    if (props.focusTo === undefined) focusHeadingSoon();
    else document.getElementById(props.focusTo)?.focus();
    props.onRetry();
  };
  return (
    <Alert>
      {props.children}{' '}
      <button type="button" class="link" onClick={retry}>
        Try again
      </button>
    </Alert>
  );
}

export function Field(props: {
  id: string;
  label: string;
  hint?: string;
  error?: string | undefined;
  children: ComponentChildren;
}) {
  return (
    <div class={props.error === undefined ? 'field' : 'field field-invalid'}>
      <label for={props.id}>{props.label}</label>
      {props.hint === undefined ? null : (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children}
      {props.error === undefined ? null : (
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** aria attributes tying an input to its hint and error text. */
export const describedBy = (id: string, hint: boolean, error: string | undefined) => ({
  'aria-invalid': error === undefined ? undefined : true,
  'aria-describedby':
    [hint ? `${id}-hint` : '', error === undefined ? '' : `${id}-error`]
      .filter(Boolean)
      .join(' ') || undefined,
});

/** A question that must be answered before something that cannot be undone. */
export function Confirm(props: {
  question: ComponentChildren;
  yes: string;
  no: string;
  onYes: () => void;
  onNo: () => void;
}) {
  // Focus moves to the safe answer as the question appears (`autoFocus` is ignored while
  // another element has focus), and goes back where it was when the question goes.
  const safe = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    safe.current?.focus();
    return () => {
      if (before?.isConnected === true && !(before as HTMLButtonElement).disabled) before.focus();
    };
  }, []);
  return (
    <div
      class="confirm"
      role="alertdialog"
      aria-labelledby={questionId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          props.onNo();
        }
        // An alert dialog keeps focus until it is answered: Tab goes round its two answers.
        if (event.key === 'Tab') {
          const answers = [...event.currentTarget.querySelectorAll('button')];
          const edge = event.shiftKey ? answers[0] : answers.at(-1);
          if (document.activeElement === edge) {
            event.preventDefault();
            (event.shiftKey ? answers.at(-1) : answers[0])?.focus();
          }
        }
      }}
    >
      <p id={questionId}>{props.question}</p>
      <div class="actions">
        <button type="button" class="danger" onClick={props.onYes}>
          {props.yes}
        </button>
        <button type="button" class="button-quiet" ref={safe} onClick={props.onNo}>
          {props.no}
        </button>
      </div>
    </div>
  );
}

/**
 * Savings in a "Saved" column: an overpayment (market price below the price paid) with a true
 * minus sign and, for a screen reader, words that say so.
 */
export function Saved(props: { amount: number }) {
  if (props.amount >= 0) return <>{credits(props.amount)}</>;
  return (
    <>
      −{credits(-props.amount)}
      <span class="visually-hidden"> (paid above the market price)</span>
    </>
  );
}
