/**
 * One function per API operation the web app uses, named after what it does. Pages call these
 * and never build requests themselves; a player's key is passed in, never read from storage here.
 */
import type { paths } from '../api-schema';
import { api, bearer, call, type Ok } from './client';

type QueryOf<P extends keyof paths> = paths[P] extends {
  get: { parameters: { query?: infer Q } };
}
  ? NonNullable<Q>
  : never;
type BodyOf<P extends keyof paths> = paths[P] extends {
  post: { requestBody?: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

export type SearchQuery = QueryOf<'/api/catalog'>;
export type SearchResult = Ok<'/api/catalog', 'get'>;
export type Listing = Ok<'/api/catalog/{id}', 'get'>;
export type ListingSummary = SearchResult['items'][number];
export type NewRequest = BodyOf<'/api/requests'>;
export type StoredRequest = Ok<'/api/requests/{id}', 'get'>;
export type Player = Ok<'/api/players/{id}', 'get'>;
export type Registered = Ok<'/api/players', 'post'>;
export type Stats = Ok<'/api/players/{id}/stats', 'get'>;
export type ProductQuery = QueryOf<'/api/products'>;
export type Product = Ok<'/api/products', 'get'>[number];
export type Started = Ok<'/api/haggle/start', 'post'>;
export type SessionDetail = Ok<'/api/haggle/{sessionId}', 'get'>;
export type Session = SessionDetail['session'];
export type Message = SessionDetail['messages'][number];
export type OfferResult = Ok<'/api/haggle/offer', 'post'>;
export type SellerReply = OfferResult['seller_response'];
export type AcceptResult = Ok<'/api/haggle/accept', 'post'>;
export type NegotiationPage = Ok<'/api/haggle', 'get'>;
export type Transaction = Ok<'/api/transactions', 'get'>[number];
export type LeaderboardEntry = Ok<'/api/leaderboard', 'get'>[number];

export const searchCatalog = (query: SearchQuery) =>
  call(api.GET('/api/catalog', { params: { query } }));

export const listCategories = () => call(api.GET('/api/catalog/categories'));

export const getListing = (id: string) =>
  call(api.GET('/api/catalog/{id}', { params: { path: { id } } }));

export const fileRequest = (body: NewRequest) => call(api.POST('/api/requests', { body }));

export const readRequest = (id: string, token: string) =>
  call(api.GET('/api/requests/{id}', { params: { path: { id } }, headers: bearer(token) }));

export const deleteRequest = (id: string, token: string) =>
  call(api.DELETE('/api/requests/{id}', { params: { path: { id } }, headers: bearer(token) }));

export const registerPlayer = (username: string, email: string) =>
  call(api.POST('/api/players', { body: { username, email } }));

/** The player a key belongs to: how signing in with a key finds who you are. */
export const getMe = (key: string) => call(api.GET('/api/players/me', { headers: bearer(key) }));

/** A new key for the player, shown only in this answer: the one sent stops working at once. */
export const rotateKey = (key: string, playerId: string) =>
  call(
    api.POST('/api/players/{id}/rotate-key', {
      params: { path: { id: playerId } },
      headers: bearer(key),
    }),
  );

export const getStats = (key: string, playerId: string) =>
  call(
    api.GET('/api/players/{id}/stats', {
      params: { path: { id: playerId } },
      headers: bearer(key),
    }),
  );

export const listProducts = (query: ProductQuery) =>
  call(api.GET('/api/products', { params: { query } }));

export const startNegotiation = (key: string, playerId: string, productId: string) =>
  call(
    api.POST('/api/haggle/start', {
      body: { player_id: playerId, product_id: productId },
      headers: bearer(key),
    }),
  );

export const getNegotiation = (key: string, sessionId: string) =>
  call(
    api.GET('/api/haggle/{sessionId}', { params: { path: { sessionId } }, headers: bearer(key) }),
  );

/** `status: 'active'`: those to continue; `cooling_down`: the products not to be reopened yet. */
export const listNegotiations = (
  key: string,
  query: { cursor?: string; status?: 'active'; cooling_down?: true; limit?: number } = {},
) => call(api.GET('/api/haggle', { params: { query }, headers: bearer(key) }));

/** `round` is the round the offer is for: a page left open on an older round is refused. */
export const makeOffer = (
  key: string,
  sessionId: string,
  amount: string,
  note: string,
  round: number,
) =>
  call(
    api.POST('/api/haggle/offer', {
      body: {
        session_id: sessionId,
        offer_amount: amount,
        round,
        ...(note.trim() === '' ? {} : { message: note.trim() }),
      },
      headers: bearer(key),
    }),
  );

export const acceptCounter = (key: string, sessionId: string) =>
  call(api.POST('/api/haggle/accept', { body: { session_id: sessionId }, headers: bearer(key) }));

export const walkAway = (key: string, sessionId: string) =>
  call(api.POST('/api/haggle/abandon', { body: { session_id: sessionId }, headers: bearer(key) }));

export const listTransactions = (key: string, playerId: string) =>
  call(
    api.GET('/api/transactions', {
      params: { query: { player_id: playerId } },
      headers: bearer(key),
    }),
  );

export const getLeaderboard = (limit: number) =>
  call(api.GET('/api/leaderboard', { params: { query: { limit } } }));
