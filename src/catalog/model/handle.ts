import { Type } from 'typebox';

/** docs/decisions.md, Handles: the shape of a product handle, wherever one is read. */
export const HANDLE_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
export const HANDLE_MAX_LENGTH = 200;
/** The rule in words, for descriptions and hints. */
export const HANDLE_RULE = `1 to ${HANDLE_MAX_LENGTH} lowercase letters, digits and single hyphens`;

/** A handle field: the product route's path parameter, get_product's argument, the catalog file's handle. */
export const handleField = (description: string) =>
  Type.String({ minLength: 1, maxLength: HANDLE_MAX_LENGTH, pattern: HANDLE_PATTERN, description });
