import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidationIssue } from '../contracts/errors.ts';
import { findNulOrDepth } from '../contracts/nul.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
/** Distinct schemas kept compiled (the catalogue has about a hundred tools). */
const MAX_BY_CONTENT = 1_000;

/** Arguments that passed: the caller's, with the schema's defaults filled in (a copy; the caller's object is untouched). */
export type ArgCheck = { ok: true; args: Record<string, unknown> } | { ok: false; issues: ValidationIssue[] };

/**
 * The one validation of tool arguments (ISSUE 13 point 3): against the tool's `input_schema` (JSON Schema 2020-12
 * generated from zod by the adapter) before anything runs, NUL and over-deep input refused first. Nothing after the
 * registry re-validates: the bus contracts carry arguments as opaque JSON and the adapter hands them to the tool as
 * they come from here, so the `default`s of the schema are filled in here (Ajv `useDefaults`, on a copy).
 * The registry only has the JSON Schema (manifests cross the bus), hence a JSON Schema validator.
 * Compiled validators are cached per schema object and by the schema's content.
 */
export class ArgValidator {
  private readonly ajv = addFormats(
    new Ajv2020({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true }),
  );
  private readonly cache = new WeakMap<object, ValidateFunction>();
  /** By content too: a listing that crossed the bus is new objects each time, the same schemas (compiling is ms). */
  private readonly byContent = new Map<string, ValidateFunction>();

  /** Validates and returns the arguments the tool runs with (defaults filled in). */
  check(schema: Record<string, unknown>, args: unknown): ArgCheck {
    const hostile = findNulOrDepth(args, '');
    if (hostile) return { ok: false, issues: [{ path: hostile.path || '(root)', message: hostile.message }] };
    const copy = args !== null && typeof args === 'object' ? structuredClone(args) : args;
    const issues = this.schemaIssues(schema, copy);
    return issues.length ? { ok: false, issues } : { ok: true, args: copy as Record<string, unknown> };
  }

  /** The problems of `args` (empty = valid). Fills the schema's defaults into `args` in place. */
  validate(schema: Record<string, unknown>, args: unknown): ValidationIssue[] {
    // Whatever the schema allows, a NUL character never reaches an adapter (PostgreSQL cannot store it) and nothing
    // deeper than the nesting limit is walked by the validator.
    const hostile = findNulOrDepth(args, '');
    if (hostile) return [{ path: hostile.path || '(root)', message: hostile.message }];
    return this.schemaIssues(schema, args);
  }

  private schemaIssues(schema: Record<string, unknown>, args: unknown): ValidationIssue[] {
    let fn = this.cache.get(schema);
    if (!fn) {
      const key = JSON.stringify(schema);
      fn = this.byContent.get(key);
      if (!fn) {
        fn = this.ajv.compile(schema);
        if (this.byContent.size >= MAX_BY_CONTENT) this.byContent.delete(this.byContent.keys().next().value as string);
        this.byContent.set(key, fn);
      }
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
    return {
      path: base || '(root)',
      message: `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`,
    };
  }
  return { path: base || '(root)', message: e.message ?? 'is invalid' };
}
