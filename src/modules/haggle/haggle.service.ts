/**
 * What each haggle route answers: the use case (start, turn, read) and its view, in one call,
 * so that routes stay schema + one service call (src/modules/README.md). `baseUrl` is where
 * product pictures are served from.
 */
import type { HaggleDeps } from './haggle.context.js';
import { listSessions, readSession } from './haggle.read.js';
import type { SessionListQuery } from './haggle.schemas.js';
import { startSession } from './haggle.start.js';
import { abandonSession, acceptCounter, makeOffer, type Caller } from './haggle.turn.js';

type StartInput = Parameters<typeof startSession>[2];
type OfferInput = Parameters<typeof makeOffer>[2];
import {
  acceptView,
  offerView,
  sessionDetailView,
  sessionOnlyView,
  sessionPageView,
  startedView,
} from './haggle.views.js';

export async function startAnswer(
  deps: HaggleDeps,
  caller: Caller,
  body: StartInput,
  baseUrl: string,
) {
  const started = await startSession(deps, caller, body);
  return { created: started.created, data: startedView(started, baseUrl, deps) };
}

export const offerAnswer = async (
  deps: HaggleDeps,
  caller: Caller,
  body: OfferInput,
  baseUrl: string,
) => offerView(await makeOffer(deps, caller, body), baseUrl, deps);

export const acceptAnswer = async (
  deps: HaggleDeps,
  caller: Caller,
  sessionId: string,
  baseUrl: string,
) => acceptView(await acceptCounter(deps, caller, sessionId), baseUrl, deps);

export const abandonAnswer = async (deps: HaggleDeps, caller: Caller, sessionId: string) =>
  sessionOnlyView(await abandonSession(deps, caller, sessionId), deps);

export const listAnswer = async (deps: HaggleDeps, playerId: string, query: SessionListQuery) =>
  sessionPageView(await listSessions(deps, playerId, query));

export const readAnswer = async (
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
  baseUrl: string,
) => sessionDetailView(await readSession(deps, playerId, sessionId), baseUrl);
