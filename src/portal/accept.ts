interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(',').flatMap((part) => {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const [type, subtype] = range.split('/');
    if (!type || !subtype) return [];
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return Number.isFinite(q) ? [{ type, subtype, q }] : [];
  });
}

/** The quality the ranges give `type/subtype`: that of the most specific range matching it (RFC 9110, 12.5.1). */
function qualityOf(ranges: MediaRange[], type: string, subtype: string): number {
  const matching = ranges
    .filter((range) => (range.type === type || range.type === '*') && (range.subtype === subtype || range.subtype === '*'))
    .sort((a, b) => specificity(b) - specificity(a));
  return matching[0]?.q ?? 0;
}

const specificity = (range: MediaRange) => (range.type === '*' ? 0 : range.subtype === '*' ? 1 : 2);

/**
 * Whether the client prefers HTML to JSON: browsers name text/html first (q=1) and take
 * anything else at a lower quality, while API clients send a wildcard, application/json or
 * nothing, which rank the two alike (or JSON first) and get JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  return qualityOf(ranges, 'text', 'html') > qualityOf(ranges, 'application', 'json');
}
