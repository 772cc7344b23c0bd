import type { AuditEntry } from './catalog-writer.js';
import type { LockedCatalog } from './locked-catalog.js';
import { chunks } from '../../store/chunks.js';
import { storedRegions } from './write/regions.js';
import type { CatalogFileRegion } from '../file/catalog-file-schema.js';

/** What an import did to one region. */
export interface RegionImported {
  id: string;
  change: 'created' | 'updated' | 'unchanged';
  /** The fields it changed: `name`, `currency`, `countries`. */
  fields: string[];
  countries_added: string[];
  countries_removed: string[];
}

/**
 * A country the file places otherwise than an admin did (PUT /admin/v1/regions/{id}):
 * it stays where the admin put it (`kept_in`); `file_region` is where the file puts it,
 * null when the file lists it in no region.
 */
export interface CountryConflict {
  country: string;
  kept_in: string;
  file_region: string | null;
}

export interface RegionsImported {
  created: number;
  /** Regions whose name, currency or countries changed (those of the file, and those that lost a country to it). */
  updated: number;
  unchanged: number;
  changes: RegionImported[];
  conflicts: CountryConflict[];
}

/**
 * Upserts the file's regions by id, in the file's order, and moves countries as the file
 * says, except the countries an admin placed: those stay, and each disagreement is
 * reported as a conflict (docs/admin.md, "Countries an admin moved").
 *
 * Which countries an admin placed is read from the audit trail, region by region: the
 * newest entry of a region is either an admin's PUT, whose countries it placed, or an
 * import's, which lists the countries it kept there against its file (`countries_held`).
 * A later import whose file agrees with them writes the region's entry again with none
 * held: from then on, files manage the region's countries again.
 */
export async function importRegions(trx: LockedCatalog, regions: readonly CatalogFileRegion[]): Promise<{ report: RegionsImported; audit: AuditEntry[] }> {
  const stored = await storedRegions(trx);
  const before = new Map(stored.map((region) => [region.id, region]));
  const held = await heldCountries(trx, stored);
  const fileRegionOf = new Map(regions.flatMap((region) => region.countries.map((country) => [country, region.id] as const)));

  const regionOf = new Map(stored.flatMap((region) => region.countries.map((country) => [country, region.id] as const)));
  const conflicts: CountryConflict[] = [];
  for (const [country, fileRegion] of fileRegionOf) {
    const keeper = held.get(country);
    if (keeper !== undefined && keeper !== fileRegion) conflicts.push({ country, kept_in: keeper, file_region: fileRegion });
    else regionOf.set(country, fileRegion);
  }
  for (const region of regions) {
    for (const country of before.get(region.id)?.countries ?? []) {
      if (fileRegionOf.has(country)) continue;
      if (held.get(country) === region.id) conflicts.push({ country, kept_in: region.id, file_region: null });
      else regionOf.delete(country);
    }
  }
  conflicts.sort((a, b) => a.country.localeCompare(b.country));

  for (const [position, region] of regions.entries()) {
    const row = { name: region.name, currency: region.currency, position };
    await trx
      .insertInto('regions')
      .values({ id: region.id, ...row })
      .onConflict((conflict) => conflict.column('id').doUpdateSet(row))
      .execute();
  }
  const previous = new Map(stored.flatMap((region) => region.countries.map((country) => [country, region.id] as const)));
  const moved = [...new Set([...previous.keys(), ...regionOf.keys()])].filter((country) => previous.get(country) !== regionOf.get(country));
  for (const batch of chunks(moved)) await trx.deleteFrom('region_countries').where('country', 'in', batch).execute();
  const placed = moved.filter((country) => regionOf.has(country)).map((country) => ({ country, region_id: regionOf.get(country)! }));
  for (const rows of chunks(placed)) await trx.insertInto('region_countries').values(rows).execute();

  const countriesAfter = (id: string) => [...regionOf].filter(([, region]) => region === id).map(([country]) => country);
  const fileRegions = new Map(regions.map((region) => [region.id, region]));
  const changes: RegionImported[] = [];
  const audit: AuditEntry[] = [];
  for (const id of new Set([...fileRegions.keys(), ...stored.map((region) => region.id)])) {
    const old = before.get(id);
    const next = fileRegions.get(id) ?? old!;
    const after = countriesAfter(id);
    const countries_added = after.filter((country) => !old?.countries.includes(country)).sort();
    const countries_removed = (old?.countries ?? []).filter((country) => !after.includes(country)).sort();
    const fields = [
      ...(old?.name !== next.name ? ['name'] : []),
      ...(old?.currency !== next.currency ? ['currency'] : []),
      ...(countries_added.length + countries_removed.length > 0 ? ['countries'] : []),
    ];
    const change = old === undefined ? 'created' : fields.length > 0 ? 'updated' : 'unchanged';
    const kept = conflicts.filter((conflict) => conflict.kept_in === id).map((conflict) => conflict.country);
    const wasHeld = [...held.values()].includes(id);
    if (fileRegions.has(id) || change !== 'unchanged') changes.push({ id, change, fields, countries_added, countries_removed });
    if (change !== 'unchanged' || kept.length > 0 || wasHeld) {
      const entry = { change, fields, countries_added, countries_removed, countries_held: kept };
      audit.push({ action: 'import', targetType: 'region', targetId: id, versionBefore: null, versionAfter: null, changes: entry });
    }
  }
  const count = (change: RegionImported['change']) => changes.filter((region) => region.change === change).length;
  return { report: { created: count('created'), updated: count('updated'), unchanged: count('unchanged'), changes, conflicts }, audit };
}

/**
 * The countries an admin placed, by the region that serves them: those the newest audit
 * entry of their region placed (an admin's PUT) or kept (an import's `countries_held`).
 */
async function heldCountries(trx: LockedCatalog, stored: { id: string; countries: string[] }[]): Promise<Map<string, string>> {
  const newest = trx
    .selectFrom('admin_audit')
    .select((eb) => ['target_id', eb.fn.max('seq').as('seq')])
    .where('target_type', '=', 'region')
    .groupBy('target_id')
    .as('newest');
  const entries = await trx
    .selectFrom('admin_audit as entry')
    .innerJoin(newest, (join) => join.onRef('entry.target_id', '=', 'newest.target_id').onRef('entry.seq', '=', 'newest.seq'))
    .select(['entry.target_id', 'entry.action', 'entry.changes'])
    .where('entry.target_type', '=', 'region')
    .execute();
  const held = new Map<string, string>();
  for (const entry of entries) {
    const changes = JSON.parse(entry.changes) as { countries?: string[]; countries_held?: string[] };
    const placed = entry.action === 'import' ? changes.countries_held : changes.countries;
    const serves = stored.find((region) => region.id === entry.target_id)?.countries ?? [];
    for (const country of placed ?? []) if (serves.includes(country)) held.set(country, entry.target_id);
  }
  return held;
}
