import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSION_THRESHOLD_BYTES } from '../../src/http/response-headers.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { expectNoSecretsIn } from '../helpers/game-checks.js';
import { GameClient, type ProductData, type TestPlayer, UNLIMITED } from '../helpers/game.js';

const categories = ['Electronics', 'Fashion', 'Food & Drink', 'Books', 'Home & Kitchen'];

describe.each(testDialects)('products and inventory (%s)', (dialect) => {
  let t: TestApp;
  let client: GameClient;
  let player: TestPlayer;
  let products: ProductData[];

  beforeAll(async () => {
    t = await createTestApp(dialect, UNLIMITED);
    client = new GameClient(t);
    player = await client.newPlayer();
    products = await client.products();
  });
  afterAll(async () => {
    await expectNoSecretsIn(client);
    await t.close();
  });

  describe('happy', () => {
    it('should list at least 50 seeded products over the five categories without a key', () => {
      expect(products.length).toBeGreaterThanOrEqual(50);
      expect(new Set(products.map((product) => product.category))).toEqual(new Set(categories));
      const prices = products.map((product) => product.market_price);
      expect(Math.min(...prices)).toBeLessThan(5);
      expect(Math.max(...prices)).toBeGreaterThan(80);
      expect(products.some((product) => product.stock_quantity === 0)).toBe(true);
      for (const product of products) {
        expect(Object.keys(product).sort()).toEqual(
          [
            'category',
            'created_at',
            'demand',
            'description',
            'id',
            'image_url',
            'market_price',
            'name',
            'stock_quantity',
            'updated_at',
          ].sort(),
        );
      }
    });

    it('should filter by category, stock and search text', async () => {
      const books = await client.get<ProductData[]>(
        `/api/products?category=${encodeURIComponent('Books')}`,
      );
      expect(books.body.data.length).toBeGreaterThan(0);
      expect(books.body.data.every((product) => product.category === 'Books')).toBe(true);
      const food = await client.get<ProductData[]>(
        `/api/products?category=${encodeURIComponent('Food & Drink')}`,
      );
      expect(food.body.data.length).toBeGreaterThan(0);
      const inStock = await client.get<ProductData[]>('/api/products?in_stock=true');
      expect(inStock.body.data.length).toBe(
        products.filter((product) => product.stock_quantity > 0).length,
      );
      const all = await client.get<ProductData[]>('/api/products?in_stock=false');
      expect(all.body.data.length).toBe(products.length);
      const sample = products[0];
      if (sample === undefined) throw new Error('no products');
      const word = sample.name.split(' ')[0] ?? sample.name;
      const found = await client.get<ProductData[]>(
        `/api/products?search=${encodeURIComponent(word.toUpperCase())}`,
      );
      expect(found.body.data.map((product) => product.id)).toContain(sample.id);
    });

    it('should page products with the Link header’s cursor in the same order as the full list', async () => {
      const seen: string[] = [];
      let url: string | undefined = '/api/products?limit=7';
      while (url !== undefined) {
        const { body, response } = await client.get<ProductData[]>(url);
        expect(body.data.length).toBeLessThanOrEqual(7);
        seen.push(...body.data.map((product) => product.id));
        const link = response.headers.link as string | undefined;
        url = link === undefined ? undefined : new URL(/<([^>]+)>/.exec(link)?.[1] ?? '').search;
        if (url !== undefined) url = `/api/products${url}`;
      }
      expect(seen).toEqual(products.map((product) => product.id));
      const full = await client.get<ProductData[]>('/api/products');
      expect(full.response.headers.link).toBeUndefined();
      // A cursor continues the list of the filters it was issued for, not another.
      const first = await client.get<ProductData[]>('/api/products?limit=7');
      const cursor = /cursor=([^&>]+)/.exec(String(first.response.headers.link))?.[1] ?? '';
      for (const filters of ['category=Electronics', 'in_stock=true', 'search=a']) {
        const other = await client.get(`/api/products?limit=7&${filters}&cursor=${cursor}`);
        expect(other.status, filters).toBe(400);
        expect(other.body, filters).toMatchObject({ details: [{ field: 'cursor' }] });
      }
      expect((await client.get(`/api/products?limit=7&cursor=${cursor}`)).status).toBe(200);
    });

    it('should search % and _ literally', async () => {
      const literal = (text: string) =>
        products.filter((product) => `${product.name} ${product.description}`.includes(text));
      const percent = await client.get<ProductData[]>('/api/products?search=%25');
      expect(literal('%').length).toBeGreaterThan(0);
      expect(percent.body.data.map((product) => product.id).sort()).toEqual(
        literal('%')
          .map((product) => product.id)
          .sort(),
      );
      const underscore = await client.get<ProductData[]>('/api/products?search=_');
      expect(underscore.body.data).toEqual(literal('_'));
    });

    it('should read one product with a key and serve its image', async () => {
      const sample = products[0];
      if (sample === undefined) throw new Error('no products');
      const read = await client.get<ProductData>(`/api/products/${sample.id}`, player);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(sample);
      const image = await t.app.inject(new URL(sample.image_url).pathname);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toContain('image/svg+xml');
      // As the operation says: cacheable for a day, and revalidated with its ETag after that.
      expect(image.headers['cache-control']).toBe('public, max-age=86400');
      expect(image.headers.etag).toBeDefined();
      expect(image.body).toContain('<svg');
      expect(new URL(sample.image_url).hostname).toBe('localhost');
    });

    it('should keep one product under the compression threshold (its route does not compress)', () => {
      for (const product of products) {
        // 200 bytes to spare for a longer public base URL in image_url.
        const body = JSON.stringify({ success: true, data: product });
        expect(Buffer.byteLength(body) + 200).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
      }
    });

    it('should summarise the inventory consistently with the product list', async () => {
      const { body } = await client.get<{
        total_products: number;
        total_stock: number;
        in_stock_products: number;
        out_of_stock_products: number;
        categories: { name: string; count: number; total_stock: number }[];
        products: ProductData[];
      }>('/api/inventory', player);
      expect(body.data.total_products).toBe(products.length);
      expect(body.data.total_stock).toBe(
        products.reduce((sum, product) => sum + product.stock_quantity, 0),
      );
      expect(body.data.in_stock_products + body.data.out_of_stock_products).toBe(products.length);
      expect(body.data.categories.reduce((sum, category) => sum + category.count, 0)).toBe(
        products.length,
      );
      expect(body.data.categories.map((category) => category.name).sort()).toEqual(
        [...categories].sort(),
      );
      const fashion = await client.get<{ total_products: number; categories: { name: string }[] }>(
        '/api/inventory?category=Fashion',
        player,
      );
      expect(fashion.body.data.categories.map((category) => category.name)).toEqual(['Fashion']);
      expect(fashion.body.data.total_products).toBe(
        products.filter((product) => product.category === 'Fashion').length,
      );
    });
  });

  describe('errors', () => {
    it.each([
      '/api/products?category=Toys',
      '/api/products?in_stock=maybe',
      '/api/inventory?category=toys',
    ])('should answer %s with 400', async (url) => {
      const { status, body } = await client.get(url, player);
      expect(status).toBe(400);
      expect(body.code).toBe('validation_error');
    });

    it('should answer 404 for an unknown product and its image', async () => {
      const unknown = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
      expect((await client.get(`/api/products/${unknown}`, player)).status).toBe(404);
      expect((await t.app.inject(`/images/products/${unknown}.svg`)).statusCode).toBe(404);
    });
  });

  describe('security', () => {
    it('should need a key to read one product', async () => {
      const sample = products[0];
      expect((await client.get(`/api/products/${sample?.id ?? ''}`)).status).toBe(401);
    });
  });
});
