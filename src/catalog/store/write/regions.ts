import type { LockedCatalog } from '../locked-catalog.js';
import type { Kysely } from 'kysely';
import { chunks } from '../../../store/chunks.js';
import type { Database } from '../../../store/schema.js';
import type { CatalogFileRegion } from '../../file/catalog-file-schema.js';
import { CatalogWriteError } from './write-errors.js';

/** The stored regions in the catalog file's shape, in their order. */
export async function storedRegions(db: Kysely<Database>): Promise<CatalogFileRegion[]> {
  const [regions, countries] = await Promise.all([
    db.selectFrom('regions').selectAll().orderBy('position').execute(),
    db.selectFrom('region_countries').selectAll().orderBy('country').execute(),
  ]);
  return regions.map((region) => ({
    id: region.id,
    name: region.name,
    currency: region.currency,
    countries: countries.filter((row) => row.region_id === region.id).map((row) => row.country),
  }));
}

/**
 * Refuses to change the currency of a region that has prices of its own: they are
 * amounts in the old currency, and would be served in the new one (10.90 CHF as
 * 10.90 EUR). The one rule for a region written by the admin API and by an import.
 */
export async function checkCurrencyChanges(trx: Kysely<Database>, regions: readonly Pick<CatalogFileRegion, 'id' | 'currency'>[]): Promise<void> {
  const asked = new Map(regions.map((region) => [region.id, region.currency]));
  const stored = await trx.selectFrom('regions').select(['id', 'currency']).orderBy('id').execute();
  for (const { id, currency } of stored) {
    const next = asked.get(id);
    if (next === undefined || next === currency) continue;
    const priced = await trx.selectFrom('prices').select('variant_id').where('region_id', '=', id).limit(1).executeTakeFirst();
    if (priced) {
      throw new CatalogWriteError(
        `Region ${id} has prices in ${currency}; remove them (POST /admin/v1/prices with amount null) before changing its currency to ${next}.`,
        { kind: 'conflict' },
      );
    }
  }
}

export interface RegionChange {
  created: boolean;
  /** Countries that moved here, by the region that served them before. */
  released: Record<string, string[]>;
}

/**
 * Creates or replaces a region (a market). A country another region served moves here;
 * a region left with no country, or a currency change while prices specific to the
 * region exist in its old currency, is refused: either would leave the catalog with
 * markets it cannot serve.
 */
export async function putRegion(trx: LockedCatalog, region: CatalogFileRegion): Promise<RegionChange> {
  // All regions, in id order: few.
  const regions = await trx.selectFrom('regions').select(['id', 'position']).orderBy('id').execute();
  const existing = regions.find((row) => row.id === region.id);
  await checkCurrencyChanges(trx, [region]);
  const owners = await trx.selectFrom('region_countries').selectAll().execute();
  const released: Record<string, string[]> = {};
  for (const { country, region_id } of owners) {
    if (region_id !== region.id && region.countries.includes(country)) (released[region_id] ??= []).push(country);
  }
  for (const [other, moving] of Object.entries(released)) {
    const keeps = owners.filter((row) => row.region_id === other && !moving.includes(row.country)).length;
    if (keeps === 0) {
      throw new CatalogWriteError(`Region ${other} would be left with no country (it serves only ${moving.join(', ')}); give it another country first.`, {
        kind: 'conflict',
      });
    }
  }

  if (existing) {
    await trx.updateTable('regions').set({ name: region.name, currency: region.currency }).where('id', '=', region.id).execute();
  } else {
    const position = regions.reduce((last, row) => Math.max(last, Number(row.position)), -1) + 1;
    await trx.insertInto('regions').values({ id: region.id, name: region.name, currency: region.currency, position }).execute();
  }
  await trx.deleteFrom('region_countries').where((eb) => eb.or([eb('region_id', '=', region.id), eb('country', 'in', region.countries)])).execute();
  for (const rows of chunks(region.countries.map((country) => ({ country, region_id: region.id })))) {
    await trx.insertInto('region_countries').values(rows).execute();
  }
  return { created: !existing, released };
}
