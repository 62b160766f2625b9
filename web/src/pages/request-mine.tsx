import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { deleteRequest, readRequest, type StoredRequest } from '../api/operations';
import { Alert, Confirm, Field, Page } from '../components/ui';
import { date } from '../format';
import { useLocation } from '../router';
import { problemText, requestKinds } from '../words';

const statusText: Record<StoredRequest['status'], string> = {
  received: 'Received, not reviewed yet',
  reviewing: 'Being reviewed',
  planned: 'Planned',
  completed: 'Completed',
  declined: 'Declined',
};

/**
 * The private address of a request's status page. The token rides in the fragment (#…), which
 * browsers never send to a server, so it stays out of every log.
 */
export const statusLink = (receipt: { id: string; token: string }) =>
  `/requests/mine#${new URLSearchParams({ id: receipt.id, token: receipt.token }).toString()}`;

export function MyRequestPage() {
  const { hash } = useLocation();
  const fromLink = new URLSearchParams(hash.slice(1));
  const [id, setId] = useState(fromLink.get('id') ?? '');
  const [token, setToken] = useState(fromLink.get('token') ?? '');
  // The request on the screen, with the token it was read with: what "Delete" deletes, whatever
  // the fields hold since.
  const [shown, setShown] = useState<{ request: StoredRequest; token: string } | null>(null);
  const request = shown?.request ?? null;
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [deleted, setDeleted] = useState(false);

  const read = async (readId: string, readToken: string) => {
    setError('');
    setDeleted(false);
    if (readId.trim() === '' || readToken.trim() === '') {
      setShown(null);
      setError('Enter both the request id and its token (the private link holds both).');
      return;
    }
    try {
      setShown({ request: await readRequest(readId.trim(), readToken), token: readToken });
      // The address now opens this request again: bookmark it to come back.
      history.replaceState(
        history.state,
        '',
        statusLink({ id: readId.trim(), token: readToken.trim() }),
      );
    } catch (failure) {
      setShown(null);
      setError(
        failure instanceof ApiError && failure.code === 'not_found'
          ? 'No request matches this id and token. Check both; a deleted request is gone for good.'
          : problemText(failure),
      );
    }
  };
  // A private link (or "Open my request") opens the request at once.
  useEffect(() => {
    const linked = new URLSearchParams(hash.slice(1));
    const linkedId = linked.get('id');
    const linkedToken = linked.get('token');
    if (linkedId !== null && linkedToken !== null) {
      setId(linkedId);
      setToken(linkedToken);
      void read(linkedId, linkedToken);
    }
  }, [hash]);

  const remove = async () => {
    if (shown === null) return;
    try {
      await deleteRequest(shown.request.id, shown.token);
      setShown(null);
      setDeleted(true);
      setConfirming(false);
      // Gone for good: nothing to read again with them.
      setId('');
      setToken('');
      history.replaceState(history.state, '', '/requests/mine');
    } catch (failure) {
      setError(problemText(failure));
    }
  };

  return (
    <Page title="My request">
      <p class="lead">
        Read the status and answer of a request you filed. Your private status link opens it
        directly; otherwise enter its id and token.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void read(id, token);
        }}
      >
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
      {deleted ? (
        <Alert kind="success" focus>
          The request is deleted for good.
        </Alert>
      ) : null}
      {request === null ? null : (
        <section aria-labelledby="request-heading" class="panel">
          <h2 id="request-heading">Status: {statusText[request.status]}</h2>
          <dl class="facts">
            <dt>Kind</dt>
            <dd>{requestKinds[request.kind]}</dd>
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
          <button type="button" class="danger" onClick={() => setConfirming(true)}>
            Delete this request
          </button>
          {confirming ? (
            <Confirm
              question="Delete this request for good? This cannot be undone."
              yes="Yes, delete it"
              no="Keep it"
              onYes={() => void remove()}
              onNo={() => setConfirming(false)}
            />
          ) : null}
        </section>
      )}
    </Page>
  );
}
