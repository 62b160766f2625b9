import type { Category } from '../../seller/index.js';

const palette: Record<Category, { background: string; accent: string; glyph: string }> = {
  Electronics: { background: '#1f3b57', accent: '#5fb3f0', glyph: '⚡' },
  Fashion: { background: '#5a2340', accent: '#f08cb8', glyph: '✂' },
  'Food & Drink': { background: '#4d3a12', accent: '#f2c14e', glyph: '☕' },
  Books: { background: '#2f4a2a', accent: '#9bd47f', glyph: '📖' },
  'Home & Kitchen': { background: '#4a2f24', accent: '#f0a27a', glyph: '⌂' },
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
    `<text x="160" y="145" font-size="72" text-anchor="middle" fill="${colors.background}" font-family="sans-serif">${colors.glyph}</text>` +
    text +
    `<text x="160" y="300" font-size="14" text-anchor="middle" fill="${colors.accent}" font-family="sans-serif">${escapeXml(product.category)}</text>` +
    `</svg>`
  );
}
