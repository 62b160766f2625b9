/**
 * The seller's tournament: every scripted buyer of seller.md against every seeded product and a
 * larger generated set, then the bar of seller.md checked criterion by criterion, with version
 * 3's buyers (informed, oracle, multi-player prober) and measures (price spread across players,
 * repeat purchases).
 *
 * Two halves: the tuning half (seeded products and generated set 7, the secret given, players
 * `player:…`) is the one the seller's numbers were chosen on; the held-back half (generated set
 * 1234, another secret, players `held:…`) was never looked at while tuning, and is reported on
 * its own as the honest measure.
 *
 *   npm run tournament                      in-process, seeded + 500 generated products
 *   npm run tournament -- --generated 0     seeded products only
 *   npm run tournament -- --half tuning     the tuning half alone (while choosing numbers:
 *                                           the held-back half stays unseen)
 *   npm run tournament -- --url http://127.0.0.1:3000
 *                                           also plays the scripted buyers over HTTP against a
 *                                           running server and sets both results side by side
 */
import { parseArgs } from 'node:util';
import { scriptedBuyers } from './tournament/buyers.js';
import { Api, HttpGame } from './tournament/http.js';
import { checkBar, checkHiddenTerms } from './tournament/bar.js';
import {
  runTournament,
  summarise,
  type Row,
  type TournamentProduct,
  type TournamentResult,
} from './tournament/play.js';
import { hiddenTerms, type HiddenTermsResult } from './tournament/hidden-terms.js';
import { generatedTranscripts, phraseFrequencies } from './tournament/phrases.js';
import { generatedProducts, seededProducts } from './tournament/products.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    generated: { type: 'string', default: '500' },
    quick: { type: 'boolean', default: false },
    sequences: { type: 'string', default: '2000' },
    secret: { type: 'string', default: 'tournament-secret' },
    half: { type: 'string', default: 'both' },
  },
});
if (!['both', 'tuning', 'held-back'].includes(values.half))
  throw new Error('--half is one of both, tuning, held-back');
const playTuning = values.half !== 'held-back';
const playHeldBack = values.half !== 'tuning';

const pct = (value: number) => `${value.toFixed(1)} %`.padStart(8);

function table(rows: Row[]): string {
  const header = `${'buyer'.padEnd(42)}${'group'.padEnd(12)}${'deals'.padStart(8)}${'discount'.padStart(10)}${'max'.padStart(9)}${'surplus'.padStart(9)}${'rounds'.padStart(8)}`;
  const lines = rows.map(
    (row) =>
      `${row.buyer.padEnd(42)}${row.group.padEnd(12)}${pct(row.dealRate * 100)}${pct(row.meanDiscount).padStart(10)}${pct(row.maxDiscount).padStart(9)}${row.meanSurplus.toFixed(2).padStart(9)}${row.meanRounds.toFixed(1).padStart(8)}`,
  );
  return [header, '-'.repeat(header.length), ...lines].join('\n');
}

function report(title: string, result: TournamentResult): void {
  console.log(`\n## ${title} (${result.products} products)\n`);
  console.log(table(result.rows));
  console.log('\nReasonable buyers by category (and the prober):');
  for (const row of result.categories) {
    console.log(
      `  ${row.category.padEnd(16)} deals ${pct(row.dealRate * 100)}  discount ${pct(row.meanDiscount)}  surplus ${row.meanSurplus.toFixed(2)}  best reasonable ${pct(row.bestReasonable)}  prober ${pct(row.prober)}`,
    );
  }
  console.log('\nExploitability:');
  console.log(
    `  white-box buyer (knows the floor and the algorithm): worst surplus ${result.whiteBox.worstSurplus.toFixed(2)} W, mean ${result.whiteBox.meanSurplus.toFixed(2)} W, mean discount ${pct(result.whiteBox.meanDiscount).trim()}`,
  );
  console.log(
    `  retry gain (best of 3 vs one): same player ${result.retryGain.toFixed(2)} points, new players ${result.newPlayerGain.toFixed(2)} points`,
  );
  console.log(
    `  random search: ${result.randomSequences} sequences per product; prober: ${result.probeSessions} sessions per product`,
  );
  console.log(
    `  skill gradient (best reasonable vs accept-the-ask): ${result.skillGradient.toFixed(1)} points`,
  );
  console.log('\nThe bar of seller.md:');
  for (const criterion of checkBar(result))
    console.log(`  ${criterion.ok ? 'pass' : 'FAIL'}  ${criterion.name} — ${criterion.detail}`);
}

function reportHiddenTerms(title: string, result: HiddenTermsResult, best: number): boolean {
  console.log(`\n## ${title}: hidden terms (version 3)\n`);
  console.log(
    `  informed buyer ${pct(result.informed.meanDiscount).trim()} (deals ${pct(result.informed.dealRate * 100).trim()}), oracle ${pct(result.oracle.meanDiscount).trim()} (deals ${pct(result.oracle.dealRate * 100).trim()}), best reasonable ${pct(best).trim()}`,
  );
  const criteria = checkHiddenTerms(result, best);
  for (const criterion of criteria)
    console.log(`  ${criterion.ok ? 'pass' : 'FAIL'}  ${criterion.name} — ${criterion.detail}`);
  return criteria.some((criterion) => !criterion.ok);
}

const options = {
  secret: values.secret,
  quick: values.quick,
  randomSequences: Number(values.sequences),
};
const generatedCount = Number(values.generated);
const proberSample = (products: readonly TournamentProduct[]) =>
  products.filter((_, i) => i % 4 === 0);

/** Plays one half: the scripted buyers' bar, then version 3's; true when a criterion fails. */
async function playHalf(
  half: string,
  title: string,
  products: readonly TournamentProduct[],
  secret: string,
  playerPrefix: string,
): Promise<boolean> {
  const result = await runTournament(products, { ...options, secret });
  report(`${half}: ${title}`, result);
  const scripted = checkBar(result).some((criterion) => !criterion.ok);
  const hidden = reportHiddenTerms(
    half,
    hiddenTerms(products, secret, playerPrefix, { proberProducts: proberSample(products) }),
    result.bestReasonable,
  );
  return scripted || hidden;
}

let failed = false;
if (playTuning)
  failed ||= await playHalf(
    'Tuning half',
    `seeded and ${generatedCount} generated products`,
    [...seededProducts, ...generatedProducts(generatedCount)],
    options.secret,
    'player:',
  );
// The held-back half: products, secret and players never used while choosing the numbers.
if (playHeldBack) {
  const heldBack = generatedProducts(Math.max(200, generatedCount), 1234);
  failed ||= await playHalf(
    'Held-back half',
    `${heldBack.length} other generated products, another secret`,
    heldBack,
    `held-back:${options.secret}`,
    'held:',
  );
}

// The seller's words over 1,000 generated sessions: no phrase that states no price may appear
// in 5 % of messages or more.
const phrases = phraseFrequencies(generatedTranscripts(1_000));
const wordy = phrases.uses.filter((use) => !use.price);
const top = wordy[0]?.share ?? 0;
console.log(
  `\n## Phrases over 1,000 generated sessions (${phrases.messages} messages, ${phrases.uses.length} phrases)\n`,
);
for (const use of wordy.slice(0, 12))
  console.log(`  ${pct(use.share * 100)}  ${use.slot.padEnd(18)} ${use.text}`);
console.log(
  `  ${top < 0.05 ? 'pass' : 'FAIL'}  most frequent phrase that states no price: ${pct(top * 100).trim()} of messages (bar: under 5 %)`,
);
failed ||= top >= 0.05;

if (values.url !== undefined) {
  const api = new Api(values.url.replace(/\/+$/, ''));
  const products = await api.products();
  const local = await runTournament(products, options);
  const remote: Row[] = [];
  for (const buyer of scriptedBuyers) {
    const outcomes = [];
    for (const product of products) {
      const game = await HttpGame.open(api, product);
      if (game === null) continue;
      await buyer.play(game);
      const outcome = game.outcome();
      // The server's floor is private: surplus is not known over HTTP, only price and rounds.
      outcomes.push({
        product,
        context: {
          sessionId: '',
          playerId: '',
          productId: product.id,
          secret: '',
          productName: product.name,
          marketCents: product.marketCents,
          floorCents: 0,
          openingAskCents: game.opening.openingAskCents,
        },
        outcome,
      });
    }
    remote.push(summarise(buyer.name, buyer.group, outcomes));
  }
  console.log(
    `\n## Over HTTP against ${values.url} (${products.length} products in stock) vs in-process on the same products\n`,
  );
  console.log(
    `${'buyer'.padEnd(42)}${'HTTP deals'.padStart(12)}${'local deals'.padStart(13)}${'HTTP disc.'.padStart(12)}${'local disc.'.padStart(13)}`,
  );
  for (const row of remote) {
    const twin = local.rows.find((candidate) => candidate.buyer === row.buyer);
    console.log(
      `${row.buyer.padEnd(42)}${pct(row.dealRate * 100).padStart(12)}${pct((twin?.dealRate ?? 0) * 100).padStart(13)}${pct(row.meanDiscount).padStart(12)}${pct(twin?.meanDiscount ?? 0).padStart(13)}`,
    );
  }
  console.log(
    '\n(The server keeps its own secret, so floors differ slightly from the local run; the two should agree in shape.)',
  );
}

process.exitCode = failed ? 1 : 0;
