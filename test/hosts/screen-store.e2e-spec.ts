/**
 * The screen store (ScreensService) against a real PostgreSQL database, with screenshots from a sim
 * screen host over real HTTPS (test/support/screen-host-bed.ts).
 */
import { Test, TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { DataSource } from 'typeorm';
import { AuditModule } from '../../src/audit/audit.module';
import { decodePng, pixelSha256, ScreenError } from '../../src/computer-use/pixels/pixels';
import { ScreensModule } from '../../src/computer-use/screens/screens.module';
import { ScreensService } from '../../src/computer-use/screens/screens.service';
import { loadConfig } from '../../src/config/app-config';
import { ConfigModule } from '../../src/config/config.module';
import { databaseOptions } from '../../src/database/database.options';
import { corruptIdat } from '../support/crafted-png';
import { createTestDatabase, TestDatabase } from '../support/database';
import { sim, target, png, hostFor, useScreenHostBed } from '../support/screen-host-bed';

useScreenHostBed();

describe('ScreensService: the content-addressed store', () => {
  let db: TestDatabase;
  let moduleRef: TestingModule;
  let screens: ScreensService;

  beforeAll(async () => {
    db = await createTestDatabase();
    moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(databaseOptions({ DATABASE_URL: db.url })),
        ConfigModule.forRoot(loadConfig({})),
        AuditModule,
        ScreensModule,
      ],
    }).compile();
    await moduleRef.init();
    screens = moduleRef.get(ScreensService);
    await db.sql(`INSERT INTO tenants (id) VALUES ('acme'), ('globex')`);
  });

  afterAll(async () => {
    await moduleRef?.close();
    await db?.drop();
  });

  it('stores a screen once per distinct SHA-256 and gives back the exact bytes', async () => {
    const shot = await (await hostFor(target(sim.url))).screenshot();
    const first = await screens.store('acme', shot);
    const second = await screens.store('acme', { png: Buffer.from(shot.png) });
    const decoded = decodePng(shot.png);
    expect(first).toEqual({
      sha256: shot.pngSha256,
      pixelSha256: pixelSha256(decoded),
      width: 1280,
      height: 800,
    });
    expect(second).toEqual(first);
    const rows = await db.sql<{ n: string }>(
      `SELECT count(*) AS n FROM screens WHERE sha256 = $1`,
      [shot.pngSha256],
    );
    expect(rows[0].n).toBe('1');
    const back = await screens.get('acme', shot.pngSha256);
    expect(back!.equals(shot.png)).toBe(true);
  });

  it('keeps tenants apart', async () => {
    const image = png(30, 30, 17);
    const stored = await screens.store('acme', { png: image });
    await expect(screens.get('globex', stored.sha256)).resolves.toBeNull();
    await screens.store('globex', { png: image });
    await expect(screens.get('globex', stored.sha256)).resolves.toEqual(image);
    const rows = await db.sql(`SELECT tenant FROM screens WHERE sha256 = $1 ORDER BY tenant`, [
      stored.sha256,
    ]);
    expect(rows).toEqual([{ tenant: 'acme' }, { tenant: 'globex' }]);
  });

  it('stores a re-encoding as its own screen with the same pixel hash', async () => {
    const image = new PNG({ width: 16, height: 8 });
    image.data.fill(99);
    const a = await screens.store('acme', { png: PNG.sync.write(image, { filterType: 0 }) });
    const b = await screens.store('acme', {
      png: PNG.sync.write(image, { filterType: 4, deflateLevel: 1 }),
    });
    expect(a.sha256).not.toBe(b.sha256);
    expect(a.pixelSha256).toBe(b.pixelSha256);
  });

  it('stores inside the caller transaction, and a rolled-back store leaves nothing behind', async () => {
    const dataSource = moduleRef.get(DataSource);
    const image = png(12, 12, 3);
    await expect(
      dataSource.transaction(async (manager) => {
        await screens.store('acme', { png: image }, { manager });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const sha = createHash('sha256').update(image).digest('hex');
    await expect(screens.get('acme', sha)).resolves.toBeNull();
    // Known to the process now, but still stored when asked again.
    await screens.store('acme', { png: image });
    await expect(screens.get('acme', sha)).resolves.toEqual(image);
  });

  it("checks a screen with its host's frame hash as far as asked: its structure, or its data too", async () => {
    const image = png(64, 64, 41);
    const damaged = corruptIdat(image);
    const facts = { pixelSha256: pixelSha256(decodePng(image)) };
    // Inflating (the default, and a run's first screen) refuses it and stores nothing.
    await expect(screens.store('acme', { png: damaged, ...facts })).rejects.toThrow(
      /compressed pixel data does not inflate|damaged/,
    );
    const sha = createHash('sha256').update(damaged).digest('hex');
    expect(await db.sql(`SELECT 1 FROM screens WHERE sha256 = $1`, [sha])).toHaveLength(0);
    // A read's screen has its structure checked: every chunk and CRC is sound, so it is stored.
    await expect(
      screens.store('acme', { png: damaged, ...facts }, { check: 'structure' }),
    ).resolves.toMatchObject({ sha256: sha, width: 64, height: 64 });
    await expect(screens.get('acme', sha)).resolves.toEqual(damaged);
    // Where a person must see it (a held write), its data is inflated: refused, again and again.
    await expect(screens.checkData({ sha256: sha, png: damaged })).rejects.toThrow(ScreenError);
    await expect(screens.checkData({ sha256: sha, png: damaged })).rejects.toThrow(ScreenError);
    // And asked to inflate the stored screen, store refuses it too.
    await expect(screens.store('acme', { png: damaged, ...facts })).rejects.toThrow(ScreenError);
    // A CRC that fails is refused whatever the check.
    const flipped = Buffer.from(image);
    flipped[50] ^= 1;
    await expect(
      screens.store('acme', { png: flipped, ...facts }, { check: 'structure' }),
    ).rejects.toThrow(/fails its CRC check/);
  });

  it('refuses a PNG that does not decode and stores nothing; get refuses malformed hashes', async () => {
    const broken = png(10, 10).subarray(0, 50);
    await expect(screens.store('acme', { png: broken })).rejects.toThrow(ScreenError);
    const sha = createHash('sha256').update(broken).digest('hex');
    expect(await db.sql(`SELECT 1 FROM screens WHERE sha256 = $1`, [sha])).toHaveLength(0);
    await expect(screens.get('acme', "' OR 1=1 --")).resolves.toBeNull();
  });
});
