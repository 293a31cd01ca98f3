/**
 * GraphQL names from database names, by Stargate's CQL-first rules (reference/graphql.md 1.6): characters
 * GraphQL does not allow, a leading digit or `__`, and an `x` that reads like an escape become `x<hex>_`
 * (`$vector` -> `x24_vector`); reserved type names and suffixes are rewritten. `toDatabaseName` undoes it.
 */

/** Our own type names: a collection named like one gets Stargate's rewritten spelling. */
const RESERVED_NAMES: Readonly<Record<string, string>> = {
  Query: 'Querx79_',
  Mutation: 'Mutatiox6e_',
  QueryOptions: 'QueryOptionx73_',
  Boolean: 'Booleax6e_',
  Float: 'Floax74_',
  Int: 'Inx74_',
  String: 'Strinx67_',
  ID: 'Ix44_',
  JSON: 'JSOx4e_',
  conversionWarnings: 'conversionWarningx73_',
};
const RESERVED_PREFIXES: readonly (readonly [string, string])[] = [
  ['Entry', 'Entrx79_'],
  ['Tuple', 'Tuplx65_'],
];
/** Suffixes the schema appends to entity names (`<c>Input`, `<c>Result`, `<c>Order`). */
const RESERVED_SUFFIXES: readonly (readonly [string, string])[] = [
  ['Input', 'Inpux74_'],
  ['Result', 'Resulx74_'],
  ['Order', 'Ordex72_'],
  ['Udt', 'Udx74_'],
];

/** The GraphQL name of a collection (or, later, a table): escaped, then reserved names, prefixes and suffixes. */
export function entityName(name: string): string {
  const reserved = RESERVED_NAMES[name];
  if (reserved !== undefined) return reserved;
  let escaped = hexEscape(name);
  for (const [prefix, replacement] of RESERVED_PREFIXES) {
    if (escaped.startsWith(prefix)) {
      escaped = replacement + escaped.slice(prefix.length);
      break;
    }
  }
  for (const [suffix, replacement] of RESERVED_SUFFIXES) {
    if (escaped.endsWith(suffix)) {
      escaped = escaped.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  return escaped;
}

/** The GraphQL name of a document field (`$vector` -> `x24_vector`). */
export function fieldName(name: string): string {
  return hexEscape(name);
}

/** The database name behind an escaped GraphQL field name. */
export function toDatabaseName(graphqlName: string): string {
  let out = '';
  for (let i = 0; i < graphqlName.length; ) {
    const length = graphqlName[i] === 'x' ? escapeLength(graphqlName, i) : -1;
    if (length > 0) {
      out += String.fromCodePoint(parseInt(graphqlName.slice(i + 1, i + length - 1), 16));
      i += length;
    } else {
      out += graphqlName[i];
      i += 1;
    }
  }
  return out;
}

function hexEscape(name: string): string {
  if (name.length === 0) throw new TypeError('a name must not be empty');
  let out = '';
  let start = 0;
  if (name.startsWith('__')) {
    out = 'x5f__';
    start = 2;
  } else if (isDigit(name.charCodeAt(0))) {
    out = escapeOf(name.codePointAt(0)!);
    start = 1;
  }
  for (let i = start; i < name.length; ) {
    const cp = name.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const plain = width === 1 && isNameChar(cp) && !(cp === 0x78 /* x */ && escapeLength(name, i) > 0);
    out += plain ? name[i] : escapeOf(cp);
    i += width;
  }
  return out;
}

/** Length of the escape `x<hex>_` starting at `i` (the x and _ included), or -1 when there is none. */
function escapeLength(name: string, i: number): number {
  let j = i + 1;
  while (j < name.length) {
    const c = name.charCodeAt(j);
    if (c === 0x5f /* _ */) return j === i + 1 ? -1 : j - i + 1;
    if (!isDigit(c) && !(c >= 0x61 && c <= 0x66)) return -1;
    j++;
  }
  return -1;
}

function escapeOf(codePoint: number): string {
  return `x${codePoint.toString(16)}_`;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isNameChar(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}
