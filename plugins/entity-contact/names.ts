/** display_name / sort_name (§4.2): token formats whose separators survive only between two non-empty parts. */

type Token = { part: string } | { sep: string };

/** Joins parts; a separator is kept only between two non-empty parts, adjacent separators collapse to the last. */
export function formatTokens(tokens: Token[]): string {
  let out = '';
  let pending: string | null = null;
  for (const token of tokens) {
    if ('sep' in token) {
      pending = token.sep;
      continue;
    }
    const part = (token.part ?? '').trim();
    if (!part) continue;
    if (out && pending !== null) out += pending;
    out += part;
    pending = null;
  }
  return out;
}

export interface NameParts {
  prefix?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  suffix?: string | null;
}

/** `{prefix}{ }{first}{ }{last}{ }{suffix}` */
export function individualDisplayName(p: NameParts): string {
  return formatTokens([
    { part: p.prefix ?? '' },
    { sep: ' ' },
    { part: p.first_name ?? '' },
    { sep: ' ' },
    { part: p.last_name ?? '' },
    { sep: ' ' },
    { part: p.suffix ?? '' },
  ]);
}

/** `{last}{, }{first}{ }{suffix}` */
export function individualSortName(p: NameParts): string {
  return formatTokens([
    { part: p.last_name ?? '' },
    { sep: ', ' },
    { part: p.first_name ?? '' },
    { sep: ' ' },
    { part: p.suffix ?? '' },
  ]);
}
