import type { Category } from '../../seller/index.js';

const palette: Record<Category, { background: string; accent: string }> = {
  Electronics: { background: '#1f3b57', accent: '#5fb3f0' },
  Fashion: { background: '#5a2340', accent: '#f08cb8' },
  'Food & Drink': { background: '#4d3a12', accent: '#f2c14e' },
  Books: { background: '#2f4a2a', accent: '#9bd47f' },
  'Home & Kitchen': { background: '#4a2f24', accent: '#f0a27a' },
};

/**
 * Each category's emblem as vector shapes (drawn in the colour given), centred on (160, 120):
 * shapes rather than a character, so it looks the same where no emoji or symbol font is
 * installed.
 */
const emblem: Record<Category, (fill: string) => string> = {
  // A lightning bolt.
  Electronics: (fill) =>
    `<path d="M172 72 L128 130 H156 L146 170 L192 108 H164 Z" fill="${fill}"/>`,
  // A T-shirt.
  Fashion: (fill) =>
    `<path d="M136 82 L112 94 L100 120 L120 128 L126 116 V166 H194 V116 L200 128 L220 120 L208 94 L184 82 Q160 100 136 82 Z" fill="${fill}"/>`,
  // A cup with its handle and steam.
  'Food & Drink': (fill) =>
    `<path d="M118 104 H190 V148 Q190 166 172 166 H136 Q118 166 118 148 Z" fill="${fill}"/>` +
    `<path d="M190 114 Q212 114 212 130 Q212 146 190 146" fill="none" stroke="${fill}" stroke-width="8"/>` +
    `<path d="M138 92 Q130 82 138 72 M156 92 Q148 82 156 72 M174 92 Q166 82 174 72" fill="none" stroke="${fill}" stroke-width="5" stroke-linecap="round"/>`,
  // An open book.
  Books: (fill) =>
    `<path d="M104 90 Q132 82 156 94 V164 Q132 152 104 160 Z M216 90 Q188 82 164 94 V164 Q188 152 216 160 Z" fill="${fill}"/>`,
  // A house.
  'Home & Kitchen': (fill) =>
    `<path d="M160 74 L210 118 H196 V166 H172 V136 H148 V166 H124 V118 H110 Z" fill="${fill}"/>`,
};

const escapeXml = (text: string): string =>
  text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Splits a product name into at most two lines that fit the card. */
function nameLines(name: string): string[] {
  const words = name.split(/\s+/);
  const lines: string[] = [''];
  for (const word of words) {
    const current = lines[lines.length - 1] ?? '';
    if (current !== '' && (current + ' ' + word).length > 16 && lines.length < 2) lines.push(word);
    else lines[lines.length - 1] = current === '' ? word : `${current} ${word}`;
  }
  return lines;
}

/**
 * Every product's picture is drawn here from its name and category, so the service needs no
 * image files and no outside image host.
 */
export function productImageSvg(product: { name: string; category: Category }): string {
  const colors = palette[product.category];
  const text = nameLines(product.name)
    .map(
      (line, i) =>
        `<text x="160" y="${232 + i * 30}" font-size="24" text-anchor="middle" fill="#ffffff" font-family="sans-serif">${escapeXml(line)}</text>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320" viewBox="0 0 320 320" role="img" aria-label="${escapeXml(product.name)}">` +
    `<rect width="320" height="320" rx="24" fill="${colors.background}"/>` +
    `<circle cx="160" cy="120" r="70" fill="${colors.accent}" opacity="0.9"/>` +
    emblem[product.category](colors.background) +
    text +
    `<text x="160" y="300" font-size="14" text-anchor="middle" fill="${colors.accent}" font-family="sans-serif">${escapeXml(product.category)}</text>` +
    `</svg>`
  );
}
