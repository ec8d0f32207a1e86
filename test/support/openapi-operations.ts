import type { JsonSchema } from './json-schema-arbitrary.ts';

/** A parameter of an OpenAPI 3.1 operation (path, query or header; the gateway documents no cookies). */
export type OpenApiParameter = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
};

/** A documented response: its media types, each with the schema of its body. */
export type OpenApiResponse = { description?: string; content?: Record<string, { schema?: JsonSchema }> };

/** One documented operation, flattened from `paths[path][method]` of the document. */
export type Operation = {
  /** `METHOD /path/{param}`: how the document names it, and how the fuzz test reports and seeds it. */
  key: string;
  method: string;
  path: string;
  parameters: OpenApiParameter[];
  /** The JSON request body, when the operation documents one. */
  body?: { required: boolean; schema: JsonSchema };
  /** Declared responses by status code (`'200'`, `'4XX'`, `'default'`). */
  responses: Record<string, OpenApiResponse>;
};

/** The part of an OpenAPI 3.1 document the fuzz test reads. */
export type OpenApiDocument = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: OpenApiParameter[]; requestBody?: RequestBody; responses?: Record<string, OpenApiResponse> }
    >
  >;
};
type RequestBody = { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
/** Creating operations first, deleting ones last: later operations then find things to read, change and delete. */
const METHOD_ORDER = ['POST', 'PUT', 'GET', 'PATCH', 'DELETE'];

/**
 * Every operation of the document in a stable order whatever order the routes registered in: by method
 * (`METHOD_ORDER`), then path.
 */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) {
      if (!METHODS.has(m)) continue;
      const json = op.requestBody?.content?.['application/json'];
      out.push({
        key: `${m.toUpperCase()} ${path}`,
        method: m.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: json ? { required: op.requestBody?.required === true, schema: json.schema ?? true } : undefined,
        responses: op.responses ?? {},
      });
    }
  }
  const rank = (op: Operation) => `${METHOD_ORDER.indexOf(op.method)} ${op.path}`;
  return out.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
}

/** The declared response for `status`: the exact code, else its class (`4XX`), else `default`. */
export function declaredResponse(op: Operation, status: number): OpenApiResponse | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}

/** FNV-1a of a string: a stable 32-bit number, to derive each operation's seed from the run's seed. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}
