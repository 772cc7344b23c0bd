import { Type } from 'typebox';
import { MAX_CURSOR_LENGTH } from './cursor.js';

/**
 * The catalog's input fields with their bounds and documented behaviour, shared by the
 * REST query strings and the MCP tools' input schemas so both accept the same values.
 * All are optional; their defaults are applied by the catalog service.
 */
export const marketFields = {
  locale: Type.Optional(
    Type.String({
      maxLength: 8,
      description: 'en or it (case-insensitive); default en. Texts fall back to English when a translation is missing.',
    }),
  ),
  country: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 2,
      description: 'ISO 3166-1 alpha-2 (case-insensitive); default IT. Picks the region that serves the country.',
    }),
  ),
  currency: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 3,
      description:
        "ISO 4217 (case-insensitive); defaults to the region's currency. A currency other than the region's is REGION_NOT_FOUND.",
    }),
  ),
};

export const queryFields = {
  q: Type.Optional(
    Type.String({
      maxLength: 120,
      description:
        'Free text over the title (in the requested locale) and the handle. Case- and accent-insensitive, matches word prefixes. Results are ordered by relevance: exact handle, then titles containing every query word as a whole word, then partial (word-prefix) matches; ties newest first.',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10, description: 'Page size, 1 to 20.' })),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1000,
      description: 'Position of the first product, 0 to 1000. Cannot be combined with cursor (INVALID_QUERY).',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: MAX_CURSOR_LENGTH,
      description:
        'Opaque next_cursor of the previous page; preferred for paging. Valid only with the same q and market; walking it visits every matching product exactly once, even while products are added or repriced.',
    }),
  ),
};
