import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';
import type { CapabilityRequestsTable, RequestStatus } from './requests.tables.js';

/**
 * Counts one more request against a daily limit, atomically: the row is created or incremented
 * only while under `limit`. Returns false when the limit is reached. Concurrent callers in any
 * process serialize on the row, so the limit holds exactly.
 */
export async function takeQuota(
  db: Db,
  day: string,
  scope: string,
  limit: number,
): Promise<boolean> {
  const row = await db
    .insertInto('request_quota')
    .values({ day, scope, used: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(['day', 'scope'])
        .doUpdateSet({ used: sql`request_quota.used + 1` })
        .where('request_quota.used', '<', limit),
    )
    .returning('used')
    .executeTakeFirst();
  return row !== undefined && row.used <= limit;
}

/** Drops the counters of days before `day`: they can no longer limit anything. */
export async function pruneQuota(db: Db, day: string): Promise<void> {
  await db.deleteFrom('request_quota').where('day', '<', day).execute();
}

export async function insertRequest(db: Db, row: CapabilityRequestsTable): Promise<void> {
  await db.insertInto('capability_requests').values(row).execute();
}

/** The request with this id and token hash: a wrong token finds nothing, as an unknown id does. */
export function findRequest(db: Db, id: string, tokenHash: string) {
  return db
    .selectFrom('capability_requests')
    .selectAll()
    .where('id', '=', id)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function deleteRequest(db: Db, id: string, tokenHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('capability_requests')
    .where('id', '=', id)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return result.numDeletedRows === 1n;
}

export function listRequests(
  db: Db,
  filter: {
    status?: RequestStatus | undefined;
    kind?: CapabilityRequestsTable['kind'] | undefined;
    limit: number;
  },
) {
  return db
    .selectFrom('capability_requests')
    .selectAll()
    .$if(filter.status !== undefined, (query) =>
      query.where('status', '=', filter.status as RequestStatus),
    )
    .$if(filter.kind !== undefined, (query) =>
      query.where('kind', '=', filter.kind as CapabilityRequestsTable['kind']),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(filter.limit)
    .execute();
}

export function findRequestById(db: Db, id: string) {
  return db.selectFrom('capability_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function answerRequest(
  db: Db,
  id: string,
  changes: {
    status: RequestStatus;
    response?: string | null | undefined;
    listing_change_id?: number | undefined;
    updated_at: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('capability_requests')
    .set({
      status: changes.status,
      updated_at: changes.updated_at,
      ...(changes.response === undefined ? {} : { response: changes.response }),
      ...(changes.listing_change_id === undefined
        ? {}
        : { listing_change_id: changes.listing_change_id }),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function listingExists(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('catalog_listings')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** A change of the catalog (for linking a correction to what it changed). */
export function findListingChange(db: Db, id: number) {
  return db
    .selectFrom('catalog_changes')
    .select(['id', 'listing_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}
