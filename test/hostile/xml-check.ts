/**
 * An XML 1.0 well-formedness check, enough for what the service writes: the prolog, one root element,
 * properly nested and named elements, quoted unique attributes, known entity and character
 * references, comments, CDATA and processing instructions, and only characters XML 1.0 allows.
 * Returns undefined when the text is well-formed, else what is wrong and where.
 */

const NAME_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}:';
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
// eslint-disable-next-line no-misleading-character-class -- XML's NameChar ranges hold combining marks on purpose
const NAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*`, 'u');
const ENTITY = /^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;

/** XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
export function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

export function xmlProblem(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    else if (cp >= 0xd800 && cp <= 0xdfff) return `lone surrogate at ${i}`;
    if (!isXmlChar(cp)) return `character U+${cp.toString(16).toUpperCase().padStart(4, '0')} at ${i}`;
  }
  let i = 0;
  const stack: string[] = [];
  let rootSeen = false;
  const ws = () => {
    while (i < text.length && /[ \t\r\n]/.test(text[i])) i++;
  };
  const name = (): string | undefined => {
    const m = NAME.exec(text.slice(i, i + 512));
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  const reference = (): string | undefined => {
    const m = ENTITY.exec(text.slice(i, i + 16));
    if (!m) return `bad entity reference at ${i}`;
    if (m[1].startsWith('#')) {
      const cp = m[1][1] === 'x' ? parseInt(m[1].slice(2), 16) : parseInt(m[1].slice(1), 10);
      if (!isXmlChar(cp)) return `character reference to a forbidden character at ${i}`;
    }
    i += m[0].length;
    return undefined;
  };
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end < 0) return 'unterminated XML declaration';
    i = end + 2;
  }
  while (i < text.length) {
    if (text[i] !== '<') {
      if (text[i] === '&') {
        if (!stack.length) return `reference outside the root at ${i}`;
        const problem = reference();
        if (problem) return problem;
        continue;
      }
      if (!stack.length && !/[ \t\r\n]/.test(text[i])) return `text outside the root at ${i}`;
      if (text[i] === '>' && text.slice(i - 2, i) === ']]') return `"]]>" in text at ${i}`;
      i++;
      continue;
    }
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return `unterminated comment at ${i}`;
      i = end + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', i)) {
      if (!stack.length) return `CDATA outside the root at ${i}`;
      const end = text.indexOf(']]>', i);
      if (end < 0) return `unterminated CDATA at ${i}`;
      i = end + 3;
      continue;
    }
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i);
      if (end < 0) return `unterminated processing instruction at ${i}`;
      i = end + 2;
      continue;
    }
    if (text.startsWith('<!', i)) return `unexpected declaration at ${i}`;
    if (text.startsWith('</', i)) {
      i += 2;
      const closing = name();
      if (!closing) return `bad end-tag name at ${i}`;
      ws();
      if (text[i] !== '>') return `bad end tag at ${i}`;
      i++;
      const open = stack.pop();
      if (open !== closing) return `</${closing}> closes <${open ?? ''}> at ${i}`;
      continue;
    }
    i++;
    const element = name();
    if (!element) return `bad element name at ${i}: ${JSON.stringify(text.slice(i, i + 20))}`;
    if (!stack.length) {
      if (rootSeen) return `a second root element at ${i}`;
      rootSeen = true;
    }
    const attrs = new Set<string>();
    for (;;) {
      const before = i;
      ws();
      if (text.startsWith('/>', i)) {
        i += 2;
        break;
      }
      if (text[i] === '>') {
        i++;
        stack.push(element);
        break;
      }
      if (i === before) return `missing space before attribute at ${i}`;
      const attr = name();
      if (!attr) return `bad attribute name at ${i}`;
      if (attrs.has(attr)) return `duplicate attribute ${attr} at ${i}`;
      attrs.add(attr);
      ws();
      if (text[i] !== '=') return `attribute without value at ${i}`;
      i++;
      ws();
      const quote = text[i];
      if (quote !== '"' && quote !== "'") return `unquoted attribute at ${i}`;
      i++;
      while (i < text.length && text[i] !== quote) {
        if (text[i] === '<') return `"<" in attribute at ${i}`;
        if (text[i] === '&') {
          const problem = reference();
          if (problem) return problem;
        } else i++;
      }
      if (i >= text.length) return 'unterminated attribute';
      i++;
    }
    if (!stack.length && rootSeen && i > text.length) return 'truncated';
  }
  if (stack.length) return `unclosed <${stack[stack.length - 1]}>`;
  if (!rootSeen) return 'no root element';
  return undefined;
}
