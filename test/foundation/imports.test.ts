import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../src');

/** Every TypeScript file under src/ with the src/ files it imports (type-only imports included). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(root, file));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const targets = [...source.matchAll(/(?:from|import)\s+'(\.{1,2}\/[^']+)'/g)].map((match) =>
      relative(root, resolve(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts'))),
    );
    graph.set(relative(root, file), targets);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]) => {
    const start = path.indexOf(file);
    if (start !== -1) {
      found.push([...path.slice(start), file]);
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return found;
}

describe('imports in src/', () => {
  const graph = importGraph();

  it('should have no import cycle', () => {
    expect(cycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('should never import a higher layer from a lower one', () => {
    const lower: Record<string, RegExp> = {
      // The seller is pure: nothing outside itself.
      'seller/': /^(?!seller\/)/,
      // Shared layers know no feature module and not the app; db/schema.ts gathers the
      // modules' table types, which is the one way down it may look.
      'db/': /^(modules\/(?!.*\.tables\.ts$)|http\/|app\.ts|context\.ts|setup\.ts)/,
      'http/': /^(modules\/|app\.ts|setup\.ts)/,
    };
    const breaches: string[] = [];
    for (const [file, targets] of graph) {
      for (const [prefix, forbidden] of Object.entries(lower)) {
        if (!file.startsWith(prefix)) continue;
        for (const target of targets) {
          if (forbidden.test(target)) breaches.push(`${file} → ${target}`);
        }
      }
    }
    expect(breaches).toEqual([]);
  });
});
