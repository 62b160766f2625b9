import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { fileRequest, getListing } from '../api/operations';
import { Alert, CopyButton, Field, Page, describedBy } from '../components/ui';
import { guardLeaving, navigate, releaseLeaving, setQuery, useLocation } from '../router';
import { formFailure, noSuchListing, requestKinds } from '../words';
import {
  CONTACT_MAX_CHARACTERS,
  TASK_MAX_CHARACTERS,
  TASK_MIN_CHARACTERS,
  characters,
  trimmed,
} from '../../../src/modules/requests/requests.limits';
import { count } from '../format';
import { statusLink } from './request-mine';

type Body = {
  kind: 'capability' | 'correction' | 'pilot';
  task: string;
  contact: string;
  client: 'unspecified' | 'instinct' | 'muse' | 'other';
  blocker: '' | 'missing_capability' | 'authentication' | 'cost' | 'compatibility' | 'quality';
  capability_id: string;
};
type Receipt = { id: string; token: string };

// The API's limits, counted as it counts them: characters after trimming.
const TASK_MIN = TASK_MIN_CHARACTERS;
const TASK_MAX = TASK_MAX_CHARACTERS;
const CONTACT_MAX = CONTACT_MAX_CHARACTERS;
const length = (text: string) => characters(trimmed(text));

const blockers = {
  '': 'Not said',
  missing_capability: 'Something is missing',
  authentication: 'Authentication',
  cost: 'Cost',
  compatibility: 'Compatibility',
  quality: 'Quality',
};
const clients = { unspecified: 'Not said', instinct: 'Instinct', muse: 'Muse', other: 'Other' };

/** A select's options from a map of values to the labels people read. */
const Options = (props: { labels: Record<string, string> }) => (
  <>
    {Object.entries(props.labels).map(([value, label]) => (
      <option key={value} value={value}>
        {label}
      </option>
    ))}
  </>
);

/** What a listing id names: a listing, none, or not known (no id, not read yet, or unreadable). */
type Named = { id: string; name: string } | 'none' | null;

// The answers that mean no listing has the id: unknown, not in a listing id's form, or far too long.
const NO_LISTING = new Set(['not_found', 'validation_error', 'uri_too_long']);

/**
 * The listing an id names, read after a pause in typing: a person sees which listing the request
 * is about, or that the id names none, before filing. The service still judges the id it is sent.
 */
function useNamedListing(id: string): Named {
  const [named, setNamed] = useState<Named>(null);
  useEffect(() => {
    setNamed(null);
    // Read as the service reads it: `LangChain` names `langchain`.
    const wanted = id.trim().toLowerCase();
    if (wanted === '') return undefined;
    // No listing's id, and in an address `.` and `..` would read another part of the API.
    if (wanted === '.' || wanted === '..') {
      setNamed('none');
      return undefined;
    }
    let current = true;
    const timer = setTimeout(() => {
      getListing(wanted).then(
        (listing) => {
          if (current) setNamed({ id: listing.id, name: listing.name });
        },
        (failure: unknown) => {
          // A read that failed (the service unreachable) says nothing: the id may well be right.
          if (current && failure instanceof ApiError && NO_LISTING.has(failure.code)) {
            setNamed('none');
          }
        },
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [id]);
  return named;
}

/** The problems found, but for `field`'s: those were about what it held before. */
const without = (problems: Record<string, string>, field: string) =>
  Object.fromEntries(Object.entries(problems).filter(([name]) => name !== field));

function check(body: Body): Record<string, string> {
  const problems: Record<string, string> = {};
  const task = length(body.task);
  if (task < TASK_MIN) problems.task = `Describe what you need in at least ${TASK_MIN} characters.`;
  if (task > TASK_MAX) problems.task = `At most ${count(TASK_MAX)} characters: ${count(task)} now.`;
  const contact = length(body.contact);
  if (contact > CONTACT_MAX) {
    problems.contact = `At most ${count(CONTACT_MAX)} characters: ${count(contact)} now.`;
  }
  return problems;
}

export function NewRequestPage() {
  const { query } = useLocation();
  const initialKind = query.get('kind');
  const [body, setBody] = useState<Body>({
    kind: initialKind === 'correction' || initialKind === 'pilot' ? initialKind : 'capability',
    task: query.get('task') ?? '',
    contact: '',
    client: 'unspecified',
    blocker: '',
    capability_id: query.get('capability_id') ?? '',
  });
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const named = useNamedListing(body.capability_id);
  // What the page opened with (a link may fill the task in): words written since are not lost
  // without asking.
  const [opened] = useState(body);
  const written =
    body.task !== opened.task ||
    body.contact !== opened.contact ||
    body.capability_id !== opened.capability_id;
  useAskBeforeLeaving(
    receipt === null && written
      ? 'Leave without filing your request? What you wrote will be lost.'
      : null,
  );

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = check(body);
    setProblems(found);
    setError('');
    if (Object.keys(found).length > 0) {
      document.getElementById(Object.keys(found)[0] ?? '')?.focus();
      return;
    }
    setBusy(true);
    try {
      const created = await fileRequest({
        kind: body.kind,
        task: body.task,
        client: body.client,
        ...(body.contact.trim() === '' ? {} : { contact: body.contact }),
        ...(body.blocker === '' ? {} : { blocker: body.blocker }),
        ...(body.capability_id.trim() === '' ? {} : { capability_id: body.capability_id.trim() }),
      });
      setReceipt({ id: created.id, token: created.token });
      // Filed: coming Back to this address must not offer the same request again, filled in.
      setQuery({});
    } catch (failure) {
      const { error, fields } = formFailure(failure);
      setError(error);
      setProblems(fields);
      // Where to look next: the first field the service refused (the alert takes focus itself
      // when no field is named).
      const first = Object.keys(fields)[0];
      if (first !== undefined) document.getElementById(first)?.focus();
    } finally {
      setBusy(false);
    }
  };

  if (receipt !== null) return <ReceiptView receipt={receipt} />;

  const set = (field: keyof Body) => (event: { currentTarget: { value: string } }) =>
    setBody({ ...body, [field]: event.currentTarget.value });
  // Once the service has refused the id, it says so by the field until the id changes; the
  // look-up says it before then, and not a second time.
  const noListing = named === 'none' && problems.capability_id === undefined;
  return (
    <Page title="File a request">
      <p class="lead">
        Ask for a capability the catalog lacks, a correction to a listing, or a pilot. Do not
        include credentials or confidential data.
      </p>
      {error === '' ? null : <Alert focus={Object.keys(problems).length === 0}>{error}</Alert>}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field id="kind" label="What are you asking for?">
          <select id="kind" value={body.kind} onChange={set('kind')}>
            {Object.entries(requestKinds).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id="task"
          label="What do you need?"
          hint={`${TASK_MIN} to ${count(TASK_MAX)} characters (${count(length(body.task))} so far).`}
          error={problems.task}
        >
          <textarea
            id="task"
            rows={6}
            value={body.task}
            onInput={set('task')}
            {...describedBy('task', true, problems.task)}
          />
        </Field>
        <Field
          id="contact"
          label="How can we reach you? (optional)"
          hint={`At most ${CONTACT_MAX} characters.`}
          error={problems.contact}
        >
          <input
            id="contact"
            type="text"
            autocomplete="email"
            value={body.contact}
            onInput={set('contact')}
            {...describedBy('contact', true, problems.contact)}
          />
        </Field>
        <Field id="blocker" label="What stops you today? (optional)" error={problems.blocker}>
          <select id="blocker" value={body.blocker} onChange={set('blocker')}>
            <Options labels={blockers} />
          </select>
        </Field>
        <Field id="client" label="The client you use (optional)" error={problems.client}>
          <select id="client" value={body.client} onChange={set('client')}>
            <Options labels={clients} />
          </select>
        </Field>
        <Field
          id="capability_id"
          label="Catalog listing id (optional)"
          error={problems.capability_id}
        >
          <input
            id="capability_id"
            type="text"
            value={body.capability_id}
            onInput={(event) => {
              set('capability_id')(event);
              setProblems(without(problems, 'capability_id'));
            }}
            {...describedBy('capability_id', true, problems.capability_id)}
            aria-invalid={noListing || problems.capability_id !== undefined ? true : undefined}
          />
          {/* The field's hint, under it: what the id names, heard as it is found. */}
          <p class={noListing ? 'field-error' : 'hint'} id="capability_id-hint" role="status">
            {noListing ? noSuchListing : null}
            {named === null || named === 'none' ? null : (
              <>
                This request is about{' '}
                <a href={`/catalog/${encodeURIComponent(named.id)}`}>{named.name}</a>.
              </>
            )}
          </p>
        </Field>
        {/* aria-disabled, not disabled: a disabled button would drop the focus it has. */}
        <button type="submit" aria-disabled={busy}>
          {busy ? 'Filing…' : 'File the request'}
        </button>
      </form>
    </Page>
  );
}

/**
 * While `question` is set, the app's links, the browser's Back and Forward, a reload or closing
 * the tab all ask it first.
 */
function useAskBeforeLeaving(question: string | null): void {
  useEffect(() => {
    if (question === null) return undefined;
    const guard = () => window.confirm(question);
    guardLeaving(guard);
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      // The receipt's guard may have taken the form's place already.
      releaseLeaving(guard);
      window.removeEventListener('beforeunload', warn);
    };
  }, [question]);
}

/** The receipt, shown once: the page asks before it is left until the holder says it is saved. */
function ReceiptView(props: { receipt: Receipt }) {
  const [saved, setSaved] = useState(false);
  const link = `${location.origin}${statusLink(props.receipt)}`;
  const question =
    'Your request token is shown only once. Leave without saving it? You will not be able to read or delete the request.';
  // The form gave way to the receipt on the same page: reading starts at its heading.
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, []);
  useAskBeforeLeaving(saved ? null : question);

  return (
    <Page title="Request filed">
      <Alert kind="warning">
        <strong>Save your private link now.</strong> It holds the token that is the only way to read
        or delete your request; it is shown only once and cannot be recovered. Bookmark it or keep
        it somewhere safe; do not share it.
      </Alert>
      <dl class="facts secret">
        <dt>Private status link</dt>
        <dd>
          <code id="receipt-link">{link}</code> <CopyButton text={link} label="Copy link" />
        </dd>
        <dt>Request id</dt>
        <dd>
          <code id="receipt-id">{props.receipt.id}</code>
        </dd>
        <dt>Token</dt>
        <dd>
          <code id="receipt-token">{props.receipt.token}</code>{' '}
          <CopyButton text={props.receipt.token} label="Copy token" />
        </dd>
      </dl>
      <div class="field checkbox">
        <input
          id="receipt-saved"
          type="checkbox"
          checked={saved}
          onChange={(event) => setSaved(event.currentTarget.checked)}
        />
        <label for="receipt-saved">I have saved the link or the token</label>
      </div>
      <p class="actions">
        <button
          type="button"
          onClick={() => {
            setSaved(true);
            guardLeaving(null);
            navigate(statusLink(props.receipt));
          }}
        >
          Open my request
        </button>
      </p>
    </Page>
  );
}
