import { randomBytes, randomUUID } from 'node:crypto';
import { pngPixelFacts, sha256Hex } from '../../src/computer-use/pixels/pixels';
import { ScreenRekey } from '../../src/computer-use/screens/screen-rekey.service';
import { ScreensService } from '../../src/computer-use/screens/screens.service';
import { startApi, TestApi } from '../support/api';
import { render } from '../support/rendered-screen';

/**
 * Screens at rest under AES-256-GCM (issue 17 §2) against the real API and PostgreSQL: the stored
 * bytes are not the PNG, the API serves the PNG, a plaintext row from before keeps working, and
 * rekey moves every row to the new key so that the old one can be removed.
 */
const KEYS_ENV = 'WARDEN_TEST_SCREEN_KEYS';
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');
const key = () => randomBytes(32).toString('base64');

describe('screens encrypted at rest', () => {
  let api: TestApi;
  let reader: string;
  let screens: ScreensService;
  const k1 = key();
  const k2 = key();

  beforeAll(async () => {
    process.env[KEYS_ENV] = `k1:${k1}`;
    api = await startApi(undefined, { SCREEN_KEYS_ENV: KEYS_ENV });
    ({ token: reader } = await api.token('acme', 'aud', ['audit.read']));
    screens = api.app.get(ScreensService);
  });

  afterAll(async () => {
    delete process.env[KEYS_ENV];
    await api?.close();
  });

  async function runWith(png: Buffer): Promise<string> {
    const id = randomUUID();
    await api.db.sql(
      `INSERT INTO runs (id, tenant, agent, goal, status, created_by, created_by_token,
                         config_version, agent_config, lease_key, max_steps, max_seconds)
       VALUES ($1, 'acme', 'sap-orders', 'keys', 'completed', 'pat', $2, 1, '{}', 'x', 20, 300)`,
      [id, randomUUID()],
    );
    const stored = await screens.store('acme', { png });
    await api.db.sql(
      `INSERT INTO steps (run_id, tenant, n, phase, screen_sha256, started_at)
       VALUES ($1, 'acme', 1, 'done', $2, now())`,
      [id, stored.sha256],
    );
    return id;
  }

  /** The PNG the API serves for step 1 of the run. */
  async function served(run: string): Promise<Buffer> {
    const response = await fetch(`${api.url}/api/computer-use/runs/${run}/steps/1/screen`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  const rows = () =>
    api.db.sql<{ sha256: string; png: Buffer; key_id: string | null; nonce: Buffer | null }>(
      'SELECT sha256, png, key_id, nonce FROM screens ORDER BY sha256',
    );

  const newPng = render(48, 32, []).png;
  const legacyPng = render(50, 32, []).png;
  let encrypted: string;
  let legacy: string;

  it('stores ciphertext under the current key and serves the same PNG', async () => {
    encrypted = await runWith(newPng);
    const [row] = await rows();
    expect(row.key_id).toBe('k1');
    expect(row.nonce).toHaveLength(12);
    expect(row.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(false);
    expect(row.png.includes(newPng.subarray(16, 48))).toBe(false);
    expect(row.sha256).toBe(sha256Hex(newPng));
    expect((await served(encrypted)).equals(newPng)).toBe(true);
  });

  it('keeps serving a plaintext row stored before keys', async () => {
    const facts = pngPixelFacts(legacyPng);
    const sha = sha256Hex(legacyPng);
    await api.db.sql(
      `INSERT INTO screens (tenant, sha256, png, width, height, pixel_sha256)
       VALUES ('acme', $1, $2, $3, $4, $5)`,
      [sha, legacyPng, facts.width, facts.height, facts.pixelSha256],
    );
    legacy = await runWith(legacyPng); // already stored: the row stays plaintext
    const plain = (await rows()).find((r) => r.sha256 === sha)!;
    expect(plain.key_id).toBeNull();
    expect((await served(legacy)).equals(legacyPng)).toBe(true);
  });

  it('rekey moves every row to the new key; then the old key can be removed', async () => {
    process.env[KEYS_ENV] = `k2:${k2},k1:${k1}`;
    const rekey = api.app.get(ScreenRekey);
    const result = await rekey.rekey({ batch: 1 });
    expect(result).toEqual({
      rekeyed: 2,
      batches: 2,
      key_id: 'k2',
      by_key: [{ key_id: 'k2', screens: 2 }],
    });
    for (const row of await rows()) {
      expect(row.key_id).toBe('k2');
      expect(row.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(false);
    }
    // Resumable: nothing is left, a second run does nothing.
    expect(await rekey.rekey()).toMatchObject({ rekeyed: 0, batches: 0 });

    process.env[KEYS_ENV] = `k2:${k2}`;
    expect((await served(encrypted)).equals(newPng)).toBe(true);
    expect((await served(legacy)).equals(legacyPng)).toBe(true);
  });

  it('fails closed on a wrong key and on tampered bytes: no PNG, a 500 that names no key', async () => {
    process.env[KEYS_ENV] = `k2:${key()}`;
    const wrong = await api.request('GET', `/api/computer-use/runs/${encrypted}/steps/1/screen`, {
      token: reader,
    });
    expect(wrong.status).toBe(500);
    expect(wrong.text).not.toContain(k2);
    await expect(screens.get('acme', sha256Hex(newPng))).rejects.toThrow(/GCM tag mismatch/);

    process.env[KEYS_ENV] = `k2:${k2}`;
    await api.db.sql(
      `UPDATE screens SET png = set_byte(png, 20, get_byte(png, 20) # 1) WHERE sha256 = $1`,
      [sha256Hex(newPng)],
    );
    await expect(screens.get('acme', sha256Hex(newPng))).rejects.toThrow(/GCM tag mismatch/);
  });
});
