import { useState } from 'preact/hooks';
import { ApiError, api, bearer, call, message, type StoredRequest } from '../api';
import { navigate, useLocation } from '../router';
import { Alert, CopyButton, Field, Page, date, describedBy } from '../ui';

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
const TASK_MIN = 12;
const TASK_MAX = 3000;
const CONTACT_MAX = 254;
const length = (text: string) => Array.from(text.trim()).length;

/** A receipt handed from the form to "my request" in memory only: the token never enters a URL. */
let handedOver: Receipt | null = null;

const kinds = {
  capability: 'A capability',
  correction: 'A correction to a listing',
  pilot: 'A pilot',
};
const blockers = {
  '': 'Not said',
  missing_capability: 'Something is missing',
  authentication: 'Authentication',
  cost: 'Cost',
  compatibility: 'Compatibility',
  quality: 'Quality',
};
const clients = { unspecified: 'Not said', instinct: 'Instinct', muse: 'Muse', other: 'Other' };

function check(body: Body): Record<string, string> {
  const problems: Record<string, string> = {};
  const task = length(body.task);
  if (task < TASK_MIN) problems.task = `Describe what you need in at least ${TASK_MIN} characters.`;
  if (task > TASK_MAX) problems.task = `At most ${TASK_MAX} characters: ${task} now.`;
  if (length(body.contact) > CONTACT_MAX) problems.contact = `At most ${CONTACT_MAX} characters.`;
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

  const submit = async (event: Event) => {
    event.preventDefault();
    const found = check(body);
    setProblems(found);
    setError('');
    if (Object.keys(found).length > 0) {
      document.getElementById(Object.keys(found)[0] ?? '')?.focus();
      return;
    }
    setBusy(true);
    try {
      const created = await call(
        api.POST('/api/requests', {
          body: {
            kind: body.kind,
            task: body.task,
            client: body.client,
            ...(body.contact.trim() === '' ? {} : { contact: body.contact }),
            ...(body.blocker === '' ? {} : { blocker: body.blocker }),
            ...(body.capability_id.trim() === ''
              ? {}
              : { capability_id: body.capability_id.trim() }),
          },
        }),
      );
      setReceipt({ id: created.id, token: created.token });
    } catch (failure) {
      setError(message(failure));
      if (failure instanceof ApiError) {
        setProblems(
          Object.fromEntries(
            failure.details.map((detail) => [detail.field, `This ${detail.message}.`]),
          ),
        );
      }
    } finally {
      setBusy(false);
    }
  };

  if (receipt !== null) {
    return (
      <Page title="Request filed">
        <Alert kind="warning">
          <strong>Keep this token now.</strong> It is shown only once and is the only way to read or
          delete your request. We cannot show it again or recover it.
        </Alert>
        <dl class="facts secret">
          <dt>Request id</dt>
          <dd>
            <code id="receipt-id">{receipt.id}</code>{' '}
            <CopyButton text={receipt.id} label="Copy id" />
          </dd>
          <dt>Token</dt>
          <dd>
            <code id="receipt-token">{receipt.token}</code>{' '}
            <CopyButton text={receipt.token} label="Copy token" />
          </dd>
        </dl>
        <button
          type="button"
          onClick={() => {
            handedOver = receipt;
            navigate('/requests/mine');
          }}
        >
          Open my request
        </button>
      </Page>
    );
  }

  const set = (field: keyof Body) => (event: { currentTarget: { value: string } }) =>
    setBody({ ...body, [field]: event.currentTarget.value });
  return (
    <Page title="File a request">
      <p class="lead">
        Ask for a capability the catalog lacks, a correction to a listing, or a pilot. Do not
        include credentials or confidential data.
      </p>
      {error === '' ? null : <Alert>{error}</Alert>}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field id="kind" label="What are you asking for?">
          <select id="kind" value={body.kind} onChange={set('kind')}>
            {Object.entries(kinds).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id="task"
          label="What do you need?"
          hint={`${TASK_MIN} to ${TASK_MAX} characters (${length(body.task)} so far).`}
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
            {Object.entries(blockers).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="client" label="The client you use (optional)" error={problems.client}>
          <select id="client" value={body.client} onChange={set('client')}>
            {Object.entries(clients).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
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
            onInput={set('capability_id')}
            {...describedBy('capability_id', false, problems.capability_id)}
          />
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Filing…' : 'File the request'}
        </button>
      </form>
    </Page>
  );
}

const statusText: Record<StoredRequest['status'], string> = {
  received: 'Received: not reviewed yet',
  reviewing: 'Being reviewed',
  planned: 'Planned',
  completed: 'Completed',
  declined: 'Declined',
};

export function MyRequestPage() {
  const { query } = useLocation();
  const [id, setId] = useState(handedOver?.id ?? query.get('id') ?? '');
  const [token, setToken] = useState(handedOver?.token ?? '');
  const [request, setRequest] = useState<StoredRequest | null>(null);
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [deleted, setDeleted] = useState(false);
  handedOver = null;

  const read = async (event?: Event) => {
    event?.preventDefault();
    setError('');
    setDeleted(false);
    try {
      setRequest(
        await call(
          api.GET('/api/requests/{id}', {
            params: { path: { id: id.trim() } },
            headers: bearer(token.trim()),
          }),
        ),
      );
    } catch (failure) {
      setRequest(null);
      setError(
        failure instanceof ApiError && failure.code === 'not_found'
          ? 'No request matches this id and token. Check both; a deleted request is gone for good.'
          : message(failure),
      );
    }
  };

  const remove = async () => {
    try {
      await call(
        api.DELETE('/api/requests/{id}', {
          params: { path: { id: id.trim() } },
          headers: bearer(token.trim()),
        }),
      );
      setRequest(null);
      setDeleted(true);
      setConfirming(false);
    } catch (failure) {
      setError(message(failure));
    }
  };

  return (
    <Page title="My request">
      <p class="lead">Read the status and answer of a request you filed, with its id and token.</p>
      <form onSubmit={(event) => void read(event)}>
        <Field id="request-id" label="Request id">
          <input
            id="request-id"
            type="text"
            required
            value={id}
            onInput={(event) => setId(event.currentTarget.value)}
          />
        </Field>
        <Field id="request-token" label="Token (rq_…)">
          <input
            id="request-token"
            type="password"
            required
            autocomplete="off"
            value={token}
            onInput={(event) => setToken(event.currentTarget.value)}
          />
        </Field>
        <button type="submit">Read my request</button>
      </form>
      {error === '' ? null : <Alert>{error}</Alert>}
      {deleted ? <Alert kind="success">The request is deleted for good.</Alert> : null}
      {request === null ? null : (
        <section aria-labelledby="request-heading" class="panel">
          <h2 id="request-heading">Status: {statusText[request.status]}</h2>
          <dl class="facts">
            <dt>Kind</dt>
            <dd>{request.kind}</dd>
            <dt>Filed</dt>
            <dd>{date(request.created_at)}</dd>
            <dt>Last change</dt>
            <dd>{date(request.updated_at)}</dd>
            {request.capability_id === null ? null : (
              <>
                <dt>Listing</dt>
                <dd>
                  <a href={`/catalog/${request.capability_id}`}>{request.capability_id}</a>
                </dd>
              </>
            )}
            <dt>Your request</dt>
            <dd class="prose">{request.task}</dd>
            <dt>Our answer</dt>
            <dd class="prose">{request.response ?? 'No answer yet.'}</dd>
          </dl>
          {confirming ? (
            <div class="confirm" role="group" aria-label="Confirm deletion">
              <p>Delete this request for good? This cannot be undone.</p>
              <button type="button" class="danger" onClick={() => void remove()}>
                Yes, delete it
              </button>{' '}
              <button type="button" class="button-quiet" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </div>
          ) : (
            <button type="button" class="danger" onClick={() => setConfirming(true)}>
              Delete this request
            </button>
          )}
        </section>
      )}
    </Page>
  );
}
