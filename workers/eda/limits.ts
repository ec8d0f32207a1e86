/**
 * Bounds on the work one schematic hierarchy may cost (docs/decisions/0040-eda-work-limits.md). A hierarchy multiplies
 * its files: a sheet file used by two sheets is read once and placed twice, so 106 KB of three files can name 90,000
 * sheet instances and a 200 KB file a part of 1 M pins. Each bound is checked while the hierarchy is expanded, before
 * the work it would cost, and a design over one is refused naming it. KiCad's largest demo (video) has 8 sheet
 * instances, depth 1, 2,113 pins, 158 pins on its largest part and 278,000 tokens.
 */
export const EDA_LIMITS = {
  /** Sheet instances after expanding the hierarchy (the root counts as one). */
  sheet_instances: 10_000,
  /** Sheets nested inside one another below the root. */
  depth: 32,
  /** Pins of one part, its units together (unannotated references such as R? are not one part). */
  pins_per_part: 10_000,
  /** Pins placed in the whole design. */
  pins: 200_000,
  /** S-expression tokens parsed (each list and atom), over every file of the design. */
  tokens: 5_000_000,
  /** Tokens after expanding the hierarchy: each sheet instance counts the tokens of its file. */
  expanded_tokens: 20_000_000,
} as const;

export type EdaLimit = keyof typeof EDA_LIMITS;

const WHAT: Record<EdaLimit, (max: number, detail?: string) => string> = {
  sheet_instances: (max) => `the hierarchy expands to more than ${max} sheet instances`,
  depth: (max) => `sheets are nested more than ${max} levels deep`,
  pins_per_part: (max, ref) => `more than ${max} pins on one part (${ref})`,
  pins: (max) => `more than ${max} pins placed in the design`,
  tokens: (max) => `more than ${max} S-expression tokens in the design's files`,
  expanded_tokens: (max) => `the hierarchy expands to more than ${max} S-expression tokens`,
};

/** A design over one of the limits: names the file being expanded, the limit and its value. */
export class EdaLimitError extends Error {
  override name = 'EdaLimitError';
  readonly file: string;
  readonly limit: EdaLimit;
  readonly max: number;
  constructor(file: string, limit: EdaLimit, detail?: string) {
    const max = EDA_LIMITS[limit];
    super(`${file}: ${WHAT[limit](max, detail)} (limit ${limit} = ${max})`);
    this.file = file;
    this.limit = limit;
    this.max = max;
  }
}

/** The work spent on one design so far, checked against EDA_LIMITS as it grows. */
export class EdaBudget {
  private instances = 0;
  private placedPins = 0;
  private parsed = 0;
  private expanded = 0;
  private readonly perPart = new Map<string, number>();
  /** The file being parsed, named by a token refusal. */
  file = '';

  /** Counts one token parsed (the S-expression reader calls this per list and atom). */
  token(): void {
    if (++this.parsed > EDA_LIMITS.tokens) throw new EdaLimitError(this.file, 'tokens');
  }

  get tokens(): number {
    return this.parsed;
  }

  /** Counts a sheet instance of `file` (of `tokens` tokens) at `depth` below the root. */
  instance(file: string, depth: number, tokens: number): void {
    if (depth > EDA_LIMITS.depth) throw new EdaLimitError(file, 'depth');
    if (++this.instances > EDA_LIMITS.sheet_instances) throw new EdaLimitError(file, 'sheet_instances');
    this.expanded += tokens;
    if (this.expanded > EDA_LIMITS.expanded_tokens) throw new EdaLimitError(file, 'expanded_tokens');
  }

  /** Counts `pins` pins placed for a symbol of `reference` in `file`. */
  pins(file: string, reference: string, pins: number): void {
    this.placedPins += pins;
    if (this.placedPins > EDA_LIMITS.pins) throw new EdaLimitError(file, 'pins');
    if (!reference || reference.includes('?')) return;
    const n = (this.perPart.get(reference) ?? 0) + pins;
    this.perPart.set(reference, n);
    if (n > EDA_LIMITS.pins_per_part) throw new EdaLimitError(file, 'pins_per_part', reference);
  }

  /** Small enough to keep parsed for the next tool (a tenth of the expansion bound). */
  get cacheable(): boolean {
    return this.expanded <= EDA_LIMITS.expanded_tokens / 10;
  }
}
