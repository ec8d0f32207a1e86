/**
 * One path segment of a resource URI: ids, item keys and project ids as the service makes them (UUIDs, `CAD-...`).
 * Nothing else matches: no `.`/`..`, no `/`, no percent-escapes, so a URI cannot climb out of its place.
 */
const SEGMENT = /^[A-Za-z0-9_-]{1,200}$/;

/** True when `s` can stand for one `{var}` of a URI template. */
export const isSegment = (s: string): boolean => SEGMENT.test(s);

/** An RFC 6570 level-1 URI template whose every `{var}` is one strict path segment. */
export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  /** The variables of a URI of this template, or undefined when it is not one. */
  match(uri: string): Record<string, string> | undefined;
  /** The URI for these values, or undefined when a value is not a valid segment. */
  expand(vars: Record<string, string>): string | undefined;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compiles a template such as `service://projects/{project_id}/sim-results/{result_id}`. */
export function uriTemplate(template: string): UriTemplate {
  const parts = template.split(/(\{[a-z_]+\})/);
  const variables = parts.filter((p) => /^\{[a-z_]+\}$/.test(p)).map((p) => p.slice(1, -1));
  const re = new RegExp(
    `^${parts.map((p) => (/^\{[a-z_]+\}$/.test(p) ? '([A-Za-z0-9_-]{1,200})' : escapeRe(p))).join('')}$`,
  );
  return {
    template,
    variables,
    match(uri) {
      const m = re.exec(uri);
      if (!m) return undefined;
      return Object.fromEntries(variables.map((v, i) => [v, m[i + 1]]));
    },
    expand(vars) {
      if (!variables.every((v) => typeof vars[v] === 'string' && isSegment(vars[v]))) return undefined;
      return template.replace(/\{([a-z_]+)\}/g, (_, v: string) => vars[v]);
    },
  };
}

/** The service's resource URIs (README "MCP resources"): knowledge sources and, per project, the twin's work. */
export const Uris = {
  /** The list of ingested knowledge sources (JSON). */
  sources: uriTemplate('service://knowledge/sources'),
  /** One knowledge source's text. */
  source: uriTemplate('service://knowledge/sources/{source_id}'),
  /** A project's work products: its items with their head revisions (JSON). */
  workProducts: uriTemplate('service://projects/{project_id}/work-products'),
  /** The head revision of one item (JSON: the node, its properties and edges). */
  workProduct: uriTemplate('service://projects/{project_id}/work-products/{item_key}'),
  /** The file stored with the head revision of one item (text, or a base64 blob). */
  workProductFile: uriTemplate('service://projects/{project_id}/work-products/{item_key}/file'),
  /** A project's simulation results, newest first (JSON). */
  simResults: uriTemplate('service://projects/{project_id}/sim-results'),
  /** One simulation result (JSON: its numbers, analysed geometry, staleness, field). */
  simResult: uriTemplate('service://projects/{project_id}/sim-results/{result_id}'),
} as const;
