// Vitest's global setup (vitest.config.ts): before any test file runs, one first start per
// dialect builds a template database; createTestApp gives every app a copy of it.

import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/db/database.js';
import { prepareStore } from '../../src/setup.js';
import {
  adminQuery,
  checkpointSqlite,
  createTestDatabase,
  testDialects,
  type DialectName,
  type TemplateDatabases,
} from './databases.js';

/** Migrates and seeds a new database exactly as the service's first start does, then closes it. */
async function buildTemplate(dialect: DialectName): Promise<string> {
  const database = await createTestDatabase(dialect);
  const config = loadConfig({ DATABASE_URL: database.url });
  const store = openStore(config);
  try {
    await prepareStore(store, config);
  } finally {
    await store.close();
  }
  if (database.target.dialect === 'sqlite') {
    checkpointSqlite(database.target.path);
    return database.target.path;
  }
  // PostgreSQL copies a database only while nobody is connected to it: let nobody connect.
  const name = new URL(database.target.url).pathname.slice(1);
  await adminQuery(serverUrl(), `alter database ${name} with allow_connections false`);
  return name;
}

const serverUrl = () => process.env.TEST_DATABASE_URL ?? '';

let templates: TemplateDatabases = {};

export async function setup(project: TestProject): Promise<void> {
  // Built anew on every run, so a template never lags behind the migrations, the seeders or the
  // data files; the random names let several runs share one PostgreSQL server.
  const built = await Promise.all(testDialects.map(buildTemplate));
  templates = Object.fromEntries(testDialects.map((dialect, i) => [dialect, built[i]]));
  project.provide('templateDatabases', templates);
}

export async function teardown(): Promise<void> {
  if (templates.sqlite !== undefined) {
    rmSync(dirname(templates.sqlite), { recursive: true, force: true });
  }
  if (templates.postgres !== undefined) {
    await adminQuery(serverUrl(), `drop database if exists ${templates.postgres} with (force)`);
  }
}
