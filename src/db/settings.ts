import { randomBytes } from 'node:crypto';
import type { Db } from './schema.js';

/**
 * Returns the stored value for `key`, creating it with `create()` the first time. Safe when
 * several processes race: the first insert wins and everyone reads the winner's value.
 */
export async function settingOrCreate(db: Db, key: string, create: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: create() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return row.value;
}

export const randomSecret = (): string => randomBytes(32).toString('base64url');
