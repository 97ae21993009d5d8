/**
 * The two APIv3 XML flavours (reference §1.6 and §1.7), byte for byte:
 * - `core` (`CRM_Utils_REST::output`): indented text built by hand, odd preamble whitespace, element
 *   names used verbatim when they are XML names (others, e.g. numeric keys, get a `_` prefix and `_`
 *   for each character a name cannot hold: the reference writes them verbatim, which does not parse),
 *   values escaped for `&`, `<`, `>` only, the `\x01` value separator printed as `,`;
 * - `wp` (the WordPress controller, DOMDocument): no indentation, nested arrays as `_<key>` children,
 *   empty elements self-closed.
 */
type Obj = Record<string, unknown>;

/** Characters XML 1.0 forbids (controls, NUL, U+FFFE/U+FFFF, lone surrogates): shown as U+FFFD. */
const NOT_XML = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text any XML 1.0 parser accepts, whatever a stored field holds. */
export function xmlChars(v: string): string {
  return v.replace(NOT_XML, '\uFFFD');
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;

function scalarText(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (v === true) return '1';
  return String(v);
}

/** `CRM_Utils_Array::escapeXML`. */
export function escapeCore(v: unknown): string {
  return xmlChars(scalarText(v).replace(/\x01/g, ','))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** `CRM_Utils_Array::xml`: one element per line, indented depth*4 spaces. */
function coreFields(list: Obj, depth: number): string {
  let xml = '';
  const pad = ' '.repeat(depth * 4);
  for (const [key, value] of Object.entries(list)) {
    const name = coreName(key);
    if (isObj(value)) xml += `${pad}<${name}>\n${coreFields(value as Obj, depth + 1)}${pad}</${name}>\n`;
    else xml += `${pad}<${name}>${escapeCore(value)}</${name}>\n`;
  }
  return xml;
}

/** A key as an element name: verbatim when it is one, else `_` + the key with `_` for what a name cannot hold. */
function coreName(key: string): string {
  return XML_NAME.test(key) ? key : `_${xmlChars(key).replace(/[^\p{L}\p{N}._-]/gu, '_')}`;
}

export function renderCoreXml(result: unknown): string {
  const envelope: Obj = isObj(result) ? result : { is_error: 0, result };
  const count =
    envelope.count !== undefined && envelope.count !== null
      ? ` count="${escapeAttr(scalarText(envelope.count))}" `
      : '';
  let xml = `<?xml version="1.0"?>\n      <ResultSet xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ${count}>\n      `;
  const hierarchical = Object.values(envelope).some(isObj);
  if (hierarchical) {
    // Envelope keys other than count are dropped; an error holding an array but no values gives an empty set.
    const values = envelope.values;
    if (isObj(values)) {
      for (const [key, value] of Object.entries(values)) {
        if (isObj(value)) xml += `<Result>\n${coreFields(value, 1)}</Result>\n`;
        else xml += `<Result>\n<id>${escapeCore(key)}</id><value>${escapeCore(value)}</value></Result>\n`;
      }
    }
  } else {
    xml += `<Result>\n${coreFields(envelope, 1)}</Result>\n`;
  }
  return xml + '</ResultSet>\n';
}

const XML_NAME = /^[\p{L}_][\p{L}\p{N}._-]*$/u;

function escapeText(v: string): string {
  return xmlChars(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

function escapeAttr(v: string): string {
  return xmlChars(v)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

function element(name: string, inner: string): string {
  return inner === '' ? `<${name}/>` : `<${name}>${inner}</${name}>`;
}

/** A field of a WP result item: scalars as text, arrays as `_<key>` children (recursively). */
function wpField(name: string, value: unknown): string {
  const tag = XML_NAME.test(name) ? name : coreName(name);
  if (isObj(value))
    return element(
      tag,
      Object.entries(value)
        .map(([k, v]) => wpField(`_${k}`, v))
        .join(''),
    );
  return element(tag, escapeText(scalarText(value)));
}

function wpItem(item: unknown): string {
  if (!isObj(item)) return element('Result', escapeText(scalarText(item)));
  return element(
    'Result',
    Object.entries(item)
      .map(([k, v]) => wpField(k, v))
      .join(''),
  );
}

export function renderWpXml(result: unknown): string {
  const r: Obj = isObj(result)
    ? Array.isArray(result)
      ? Object.fromEntries(result.map((v, i) => [String(i), v]))
      : result
    : { result };
  let attrs = ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
  if (r.count !== undefined && r.count !== null) attrs += ` count="${escapeAttr(scalarText(r.count))}"`;
  const inner =
    r.values !== undefined && r.values !== null
      ? (isObj(r.values) ? Object.values(r.values) : [r.values]).map(wpItem).join('')
      : wpItem(r);
  return `<?xml version="1.0"?>\n${inner === '' ? `<ResultSet${attrs}/>` : `<ResultSet${attrs}>${inner}</ResultSet>`}\n`;
}

export function renderXml(value: unknown, opts: { flavour?: unknown } = {}): string {
  return opts.flavour === 'wp' ? renderWpXml(value) : renderCoreXml(value);
}
