/**
 * Reading fields the documents list without saying they are always present: a field holding no
 * value (false, an empty string, no timestamp yet) may be left out of an answer, as real products
 * do (issue 35, class 5), so a check of such a field accepts its absence too.
 */

/** A flag holding false: shown as false, or left out. */
export const offOrAbsent = (v: unknown): boolean => v === false || v === undefined;

/** A string holding no value: shown as "", or left out. */
export const emptyOrAbsent = (v: unknown): boolean => v === '' || v === undefined;
