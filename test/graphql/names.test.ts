/** Stargate's name escaping (reference/graphql.md 1.6) and its inverse. */
import { expect, test } from 'vitest';
import { entityName, fieldName, toDatabaseName } from '../../src/graphql/index.js';

test('names are escaped as Stargate escapes them, and unescaped back', () => {
  const cases: [string, string][] = [
    ['$vector', 'x24_vector'],
    ['__a', 'x5f__a'],
    ['1st', 'x31_st'],
    ['x1_', 'x78_1_'],
    ['a.b c', 'ax2e_bx20_c'],
    ['plain_name', 'plain_name'],
    ['é', 'xe9_'],
  ];
  for (const [name, escaped] of cases) {
    expect(fieldName(name), name).toBe(escaped);
    expect(toDatabaseName(escaped), escaped).toBe(name);
  }
});

test('reserved names, prefixes and suffixes of entity types are rewritten', () => {
  expect(entityName('Query')).toBe('Querx79_');
  expect(entityName('Mutation')).toBe('Mutatiox6e_');
  expect(entityName('String')).toBe('Strinx67_');
  expect(entityName('conversionWarnings')).toBe('conversionWarningx73_');
  expect(entityName('EntryPoint')).toBe('Entrx79_Point');
  expect(entityName('bookInput')).toBe('bookInpux74_');
  expect(entityName('Result')).toBe('Resulx74_');
  expect(entityName('books')).toBe('books');
});
