import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidationIssue } from '../../contracts/errors.ts';
import { findNulOrDepth } from '../../contracts/nul.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * Validates tool arguments against the tool's `input_schema` (JSON Schema 2020-12 generated from zod by the adapter)
 * before anything runs. The registry only has the JSON Schema (manifests cross the bus), hence a JSON Schema validator.
 * Compiled validators are cached per schema object.
 */
export class ArgValidator {
  private readonly ajv = addFormats(new Ajv2020({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false }));
  private readonly cache = new WeakMap<object, ValidateFunction>();

  validate(schema: Record<string, unknown>, args: unknown): ValidationIssue[] {
    // Whatever the schema allows, a NUL character never reaches an adapter (PostgreSQL cannot store it) and nothing
    // deeper than the nesting limit is walked by the validator.
    const hostile = findNulOrDepth(args, '');
    if (hostile) return [{ path: hostile.path || '(root)', message: hostile.message }];
    let fn = this.cache.get(schema);
    if (!fn) {
      fn = this.ajv.compile(schema);
      this.cache.set(schema, fn);
    }
    if (fn(args)) return [];
    return (fn.errors ?? []).map(toIssue);
  }
}

function toIssue(e: ErrorObject): ValidationIssue {
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    return { path: base ? `${base}.${missing}` : missing, message: 'is required' };
  }
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    return { path: base ? `${base}.${extra}` : extra, message: 'is not a known argument' };
  }
  if (e.keyword === 'enum') {
    return { path: base || '(root)', message: `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}` };
  }
  return { path: base || '(root)', message: e.message ?? 'is invalid' };
}
