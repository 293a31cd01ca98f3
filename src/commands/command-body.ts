/**
 * Reading a command's JSON body strictly: unknown fields are COMMAND_FIELD_UNKNOWN, wrong types are
 * COMMAND_FIELD_VALUE_INVALID / REQUEST_STRUCTURE_MISMATCH, and options of no-option commands are refused.
 */
import { VectorDbError, describeValue, jsonTypeName } from '../errors/index.js';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';

export class CommandBody {
  readonly command: string;
  readonly #fields: JsonObject;

  constructor(command: string, raw: unknown, known: readonly string[]) {
    this.command = command;
    if (raw === null || raw === undefined) raw = {};
    if (!isObject(raw)) {
      throw VectorDbError.of('REQUEST_STRUCTURE_MISMATCH', { reason: `the value of command '${command}' must be an Object, got ${jsonTypeName(raw)}` });
    }
    for (const field of Object.keys(raw)) {
      if (!known.includes(field)) {
        throw VectorDbError.of('COMMAND_FIELD_UNKNOWN', { field, known: known.map((k) => `'${k}'`).join(', ') });
      }
    }
    this.#fields = raw;
  }

  /** A field's raw value (undefined when absent or null). */
  get(field: string): JsonValue | undefined {
    const value = this.#fields[field];
    return value === null ? undefined : value;
  }

  has(field: string): boolean {
    return this.get(field) !== undefined;
  }

  require(field: string): JsonValue {
    const value = this.get(field);
    if (value === undefined) throw invalid(field, value, 'must not be null');
    return value;
  }

  /** A required string field (a name). */
  string(field: string): string {
    const value = this.require(field);
    if (typeof value !== 'string') throw invalid(field, value, 'must be a string');
    return value;
  }

  object(field: string, required = false): JsonObject | undefined {
    const value = required ? this.require(field) : this.get(field);
    if (value === undefined) return undefined;
    if (!isObject(value)) {
      throw VectorDbError.of('REQUEST_STRUCTURE_MISMATCH', { reason: `field '${field}' of command '${this.command}' must be an Object, got ${jsonTypeName(value)}` });
    }
    return value;
  }

  /** The `options` object, checked against its known fields. */
  options(known: readonly string[]): Options {
    const value = this.object('options') ?? {};
    for (const field of Object.keys(value)) {
      if (!known.includes(field)) {
        throw VectorDbError.of('COMMAND_FIELD_UNKNOWN', { field: `options.${field}`, known: known.map((k) => `'${k}'`).join(', ') });
      }
    }
    return new Options(value);
  }

  /** For commands that take no options: `options` may be absent, null or {}. */
  noOptions(): void {
    const value = this.get('options');
    if (value !== undefined && !(isObject(value) && Object.keys(value).length === 0)) {
      throw VectorDbError.of('COMMAND_ACCEPTS_NO_OPTIONS', { command: this.command });
    }
  }
}

export class Options {
  readonly #values: JsonObject;

  constructor(values: JsonObject) {
    this.#values = values;
  }

  raw(field: string): JsonValue | undefined {
    const value = this.#values[field];
    return value === null ? undefined : value;
  }

  boolean(field: string, fallback: boolean): boolean {
    const value = this.raw(field);
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') throw invalid(`options.${field}`, value, 'must be a boolean');
    return value;
  }

  /** An integer option within bounds; `reason` explains the bound when broken. */
  integer(field: string, min: number, reason: string): number | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(`options.${field}`, value, 'must be an integer');
    if (value < min) throw invalid(`options.${field}`, value, reason);
    return value;
  }

  string(field: string): string | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalid(`options.${field}`, value, 'must be a string');
    return value;
  }
}

export function invalid(field: string, value: unknown, reason: string): VectorDbError {
  return VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field, value: value === undefined ? '`null`' : describeValue(value), reason });
}
