import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * PostgreSQL: `changed_meanwhile()` raises SQLSTATE BZ409. A turn of a negotiation decided on
 * rows read without a lock is written in one statement, which calls it when one of its
 * conditional writes found the rows changed since they were read: the statement fails as a
 * whole, and the turn is decided again under locks (`runTogether`, `src/db/prepared.ts`).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create function changed_meanwhile() returns integer language plpgsql volatile as $$
    begin
      raise exception 'the rows changed since they were read' using errcode = 'BZ409';
    end
  $$`.execute(db);
}
