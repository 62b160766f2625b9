import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import type { ListingEntry } from '../../src/modules/catalog/catalog.schemas.js';
import { syncCatalog } from '../../src/modules/catalog/catalog.sync.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

/** What these tests read of a search answer (the catalog-*.test.ts files cover the rest). */
interface Answer {
  items: {
    id: string;
    categories: string[];
    matched?: { term: string; fields: string[] }[];
  }[];
  total: number;
  total_is_estimate: boolean;
  count: number;
  corrected_query: string | null;
  suggestions: string[];
  related_categories: { category: string; listings: number }[];
  capability_request: { method: string; url: string; body: { kind: string; task: string } } | null;
}

/**
 * Search as a need is written: words that are never corrected, the way forward when little is
 * found, estimated totals, and use cases and lifecycle status in the ranking.
 */
describe.each(testDialects)('catalog search for needs (%s)', (dialect) => {
  let t: TestApp;
  const search = async (query: string) => {
    const response = await t.app.inject(`/api/catalog${query}`);
    return { status: response.statusCode, body: response.json<{ data: Answer }>() };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('should never replace a word the catalog contains, nor a name close to a common word', async () => {
    // Names of the catalog ('langsmith', 'sglang', 'modal', 'sentry') are never replaced, nor
    // words one typo away from a common word that are in no listing ('smithery').
    for (const q of [
      'langsmith',
      'sglang',
      'modal',
      'cron',
      'smithery',
      'sentry',
      'golang',
      'mail',
    ]) {
      const { body } = await search(`?q=${q}`);
      expect(body.data.corrected_query, q).toBeNull();
    }
    const partial = (await search('?q=sglang%20inference%20server')).body.data;
    expect(partial.corrected_query).toBeNull();
    expect(partial.items[0]?.id).toBe('sglang');
    expect(partial.items.map((item) => item.id)).toContain('vllm');
  });

  it('should offer a valid capability request and related categories when it finds few', async () => {
    const none = (await search('?q=zzqqxxyy')).body.data;
    expect(none).toMatchObject({ items: [], count: 0, total: 0, suggestions: [] });
    expect(none.capability_request).toEqual({
      method: 'POST',
      url: expect.stringMatching(/^https?:\/\/.+\/api\/requests$/),
      body: { kind: 'capability', task: 'A capability for: zzqqxxyy' },
    });
    // The suggested request is accepted as it is.
    const filed = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: none.capability_request?.body,
    });
    expect(filed.statusCode).toBe(201);
    // Not every word has to match: the words that do still find their listings.
    const partial = (await search('?q=turbopuffer%20zzqqxxyy')).body.data;
    expect(partial.corrected_query).toBeNull();
    expect(partial.items[0]?.id).toBe('turbopuffer');
    expect(partial.capability_request?.body.task).toBe('turbopuffer zzqqxxyy');
    expect(partial.related_categories).toContainEqual({
      category: 'vector-database',
      listings: loadCatalogFile().filter((l) => l.categories.includes('vector-database')).length,
    });
    // The category of what was found comes first, before categories that only share a word.
    const named = (await search('?q=qdrant')).body.data;
    expect(named.items[0]?.id).toBe('qdrant');
    expect(named.related_categories[0]?.category).toBe('vector-database');
    // A credential typed into the search stays out of the request, which is then accepted.
    const pasted = `sk-proj-${'x'.repeat(30)}`;
    const leaked = (await search(`?q=${encodeURIComponent(`zzqqxxyy key ${pasted}`)}`)).body.data;
    expect(leaked.capability_request?.body.task).toBe('zzqqxxyy key [redacted]');
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: leaked.capability_request?.body,
    });
    expect(accepted.statusCode).toBe(201);
    // What is missing is the need with the filters that narrowed it.
    const narrowed = (await search('?q=vector%20database&protocol=ruby')).body.data;
    expect(narrowed.capability_request?.body.task).toBe('vector database (protocol: ruby)');
    // A credential in a filter stays out of it too.
    const inFilter = (
      await search(`?q=vector%20database&category=${pasted}&protocol=ghp_${'a'.repeat(36)}`)
    ).body.data;
    expect(inFilter.capability_request?.body.task).toBe(
      'vector database (category: [redacted], protocol: [redacted])',
    );
    const filedAsGiven = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: inFilter.capability_request?.body,
    });
    expect(filedAsGiven.statusCode).toBe(201);
    // Parts that match do not hide that nothing fits the whole need.
    const parts = (await search('?q=redis.lua')).body.data;
    expect(parts.items.length).toBeGreaterThan(0);
    expect(parts.capability_request?.body.task).toBe('A capability for: redis.lua');
    expect((await search('?q=vector%20database')).body.data).toMatchObject({
      related_categories: [],
      capability_request: null,
    });
    // Punctuation alone names no need: nothing matches, and no request is offered for it.
    expect((await search('?q=!!!')).body.data).toMatchObject({
      items: [],
      total: 0,
      capability_request: null,
    });
  });

  it('should answer alternatives to a listing with others of its categories, not it', async () => {
    const listings = new Map(loadCatalogFile().map((listing) => [listing.id, listing]));
    const ids = async (q: string) =>
      (await search(`?q=${encodeURIComponent(q)}&limit=50`)).body.data.items.map((i) => i.id);
    const sharing = (id: string, other: string) =>
      listings.get(id)?.categories.some((c) => listings.get(other)?.categories.includes(c));
    for (const [q, named, wanted] of [
      [
        'alternative to Pinecone',
        'pinecone',
        ['qdrant', 'milvus', 'weaviate', 'chroma', 'pgvector'],
      ],
      ['airflow alternatives', 'apache-airflow', ['prefect', 'dagster', 'kestra', 'temporal']],
      ['open source replacement for LangSmith', 'langsmith', ['langfuse', 'arize-phoenix', 'opik']],
    ] as const) {
      const found = await ids(q);
      expect(found, q).not.toContain(named);
      for (const id of found) expect(sharing(id, named), `${q}: ${id}`).toBe(true);
      // Of those wanted, at least two in the first six and three in all.
      const of = (some: readonly string[]) => some.filter((id) => wanted.includes(id as never));
      expect(of(found.slice(0, 6)).length, `${q}: ${found.join(', ')}`).toBeGreaterThanOrEqual(2);
      expect(of(found).length, q).toBeGreaterThanOrEqual(3);
    }
    // The successor of a retired listing comes first.
    expect(listings.get('autogen')?.successor).toBe('microsoft-agent-framework');
    expect((await ids('replacement for autogen'))[0]).toBe('microsoft-agent-framework');
    // Naming nothing of the catalog, the words are searched as they are.
    expect(await ids('alternative to zzqqxxyy')).toEqual(await ids('alternative zzqqxxyy'));
    // A query that is itself an alias names its listings, which come first.
    const aliased = [...listings.values()]
      .filter((listing) => listing.aliases?.includes('Postman alternative'))
      .map((listing) => listing.id)
      .sort();
    expect(aliased.length).toBeGreaterThan(0);
    const postman = await ids('Postman alternative');
    expect(postman.slice(0, aliased.length).sort()).toEqual(aliased);
  });

  it('should name the categories a category filter naming none may have meant', async () => {
    const size = (id: string) => loadCatalogFile().filter((l) => l.categories.includes(id)).length;
    const typo = (await search('?category=speach-to-text')).body.data;
    expect(typo).toMatchObject({ items: [], total: 0 });
    expect(typo.related_categories[0]).toEqual({
      category: 'speech-to-text',
      listings: size('speech-to-text'),
    });
    const word = (await search('?q=qdrant&category=vector')).body.data;
    expect(word.total).toBe(0);
    expect(word.related_categories.map((c) => c.category)).toContain('vector-database');
    expect((await search('?category=zzqqxxyy')).body.data.related_categories).toEqual([]);
    // A category, or an alias of one, is no mistake, even where nothing else matches.
    for (const query of ['?category=speech-to-text', '?category=transcription&q=zzqqxxyy'])
      expect((await search(query)).body.data.related_categories, query).toEqual([]);
  });

  it('should estimate the total of a term in more listings than a search reads', async () => {
    const entries = loadCatalogFile();
    const copies = Array.from({ length: 1200 }, (_, i) => {
      const base = entries[i % entries.length] as ListingEntry;
      return i < entries.length
        ? base
        : { ...base, id: `${base.id}-${i}`, name: `${base.name} ${i}` };
    });
    await syncCatalog(t.store, copies);
    const common = (await search('?q=agent&limit=5')).body.data;
    expect(common.total_is_estimate).toBe(true);
    expect(common.total).toBeGreaterThan(300);
    expect(common.count).toBe(5);
    const rare = (await search('?q=qdrant')).body.data;
    expect(rare.total_is_estimate).toBe(false);
    expect(rare.total).toBe(rare.items.length);
    expect(rare.total).toBeGreaterThanOrEqual(
      copies.filter((entry) => entry.id.startsWith('qdrant')).length,
    );
    expect(rare.items[0]?.id).toBe('qdrant');
    await syncCatalog(t.store, entries);
    expect((await search('?q=agent')).body.data.total_is_estimate).toBe(false);
  });

  it('should put what works offline before hosted APIs when a need asks for offline', async () => {
    // From the listings' data: these say they run offline on the user's machine; those are
    // hosted speech-to-text APIs (some also sell on-premises deployment, or take a local file).
    const offline = [
      'openai-whisper',
      'vosk',
      'whisper-cpp',
      'picovoice-leopard',
      'faster-whisper',
    ];
    const hosted = [
      'amazon-transcribe',
      'assemblyai',
      'deepgram',
      'openai-speech-to-text',
      'rev-ai',
      'speechmatics',
    ];
    for (const need of [
      'I need to transcribe recordings offline',
      'transcribe audio offline on my laptop',
      'speech recognition that works offline',
    ]) {
      const found = (await search(`?q=${encodeURIComponent(need)}&limit=10`)).body.data.items;
      const ids = found.map((item) => item.id);
      const firstHosted = ids.findIndex((id) => hosted.includes(id));
      expect(
        ids.slice(0, 4).every((id) => offline.includes(id)),
        `${need} → ${ids.join()}`,
      ).toBe(true);
      expect(firstHosted, `${need} → ${ids.join()}`).toBeGreaterThanOrEqual(4);
      expect(ids, need).toContain('faster-whisper');
      for (const item of found) expect(item.categories, item.id).not.toEqual(['text-to-speech']);
    }
  });

  it('should say which of a phrase’s words matched, and count a listing with some as a partial match', async () => {
    const { body } = await search('?q=speech%20to%20text&protocol=mcp&limit=50');
    const { items } = body.data;
    expect(items.length).toBeGreaterThan(0);
    let whole = 0;
    for (const item of items) {
      const listing = (await t.app.inject(`/api/catalog/${item.id}`)).body.toLowerCase();
      const terms = (item.matched ?? []).map((match) => match.term);
      expect(terms, item.id).toHaveLength(1);
      const [term = ''] = terms;
      if (term === 'speech' || term === 'text') {
        // Only one of the two words is in the listing, and that is the word it names.
        expect(listing, item.id).toContain(term);
      } else {
        // Both words, or an equivalent (transcription…).
        if (term === 'speech text') expect(listing, item.id).toMatch(/speech/);
        whole++;
      }
    }
    expect(whole).toBeLessThan(items.length);
    // Few listings match the whole need: the answer offers the way forward.
    expect(body.data.capability_request === null).toBe(whole > 3);
  });

  it('should find listings by their use cases, active ones first among equals', async () => {
    const entries = loadCatalogFile();
    const useCases: Record<string, string[]> = {
      'whisper-cpp': ['subtitle home videos on a laptop', 'transcribe audio files'],
      vosk: ['subtitle home videos on a laptop', 'voice commands on a phone'],
      'playwright-mcp': ['control a browser from an agent'],
    };
    const edited = entries.map((entry) => ({
      ...entry,
      ...(useCases[entry.id] === undefined ? {} : { use_cases: useCases[entry.id] }),
      ...(entry.id === 'whisper-cpp' ? { status: 'deprecated' as const } : {}),
    }));
    await syncCatalog(t.store, edited);
    const found = (await search('?q=subtitle%20my%20home%20videos')).body.data.items;
    // The same use case on both: the active listing comes first.
    expect(found.slice(0, 2).map((item) => item.id)).toEqual(['vosk', 'whisper-cpp']);
    expect(found[0]?.matched).toContainEqual({
      term: 'subtitle',
      fields: ['use_cases'],
    });
    expect(
      (await t.app.inject('/api/catalog/vosk')).json<{ data: { use_cases?: string[] } }>().data,
    ).toMatchObject({ use_cases: useCases.vosk });
    await syncCatalog(t.store, entries);
    expect((await search('?q=subtitle%20home%20videos')).body.data.items[0]?.id).not.toBe('vosk');
  });
});
