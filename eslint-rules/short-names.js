/**
 * No one-character names in long functions: inside a function whose body spans more than `maxLines` lines
 * (15 by default), a variable, parameter, destructured or catch-clause name of one character is an error,
 * except the loop counters `i`, `j`, `k` and the placeholder `_`. A name belongs to the innermost function
 * that declares it, so a short callback inside a long function may still write `(r) => r.id`.
 */
const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The identifiers a binding pattern declares (`a`, `{ a, b: c }`, `[d, ...e]`, `f = 1`). */
function declaredNames(pattern, out = []) {
  if (!pattern) return out;
  switch (pattern.type) {
    case 'Identifier':
      out.push(pattern);
      break;
    case 'ObjectPattern':
      for (const property of pattern.properties)
        declaredNames(property.type === 'RestElement' ? property.argument : property.value, out);
      break;
    case 'ArrayPattern':
      for (const element of pattern.elements) declaredNames(element, out);
      break;
    case 'AssignmentPattern':
      declaredNames(pattern.left, out);
      break;
    case 'RestElement':
      declaredNames(pattern.argument, out);
      break;
    case 'TSParameterProperty':
      declaredNames(pattern.parameter, out);
      break;
  }
  return out;
}

export default {
  meta: {
    type: 'suggestion',
    docs: { description: 'No one-character variable or parameter names in functions longer than 15 lines' },
    messages: {
      short:
        "'{{name}}' is a one-character name in a function of {{lines}} lines (over {{max}}): " +
        'name what it holds (i, j, k and _ are allowed).',
    },
    schema: [
      {
        type: 'object',
        properties: {
          maxLines: { type: 'integer', minimum: 1 },
          allow: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const options = context.options[0] ?? {};
    const maxLines = options.maxLines ?? 15;
    const allowed = new Set(options.allow ?? ['i', 'j', 'k', '_']);
    const linesOf = (fn) => fn.body.loc.end.line - fn.body.loc.start.line + 1;
    const innermostFunction = (node) =>
      context.sourceCode
        .getAncestors(node)
        .reverse()
        .find((ancestor) => FUNCTION_TYPES.has(ancestor.type));
    const check = (fn, pattern) => {
      if (!fn) return;
      const lines = linesOf(fn);
      if (lines <= maxLines) return;
      for (const id of declaredNames(pattern)) {
        if (id.name.length !== 1 || allowed.has(id.name)) continue;
        context.report({ node: id, messageId: 'short', data: { name: id.name, lines, max: maxLines } });
      }
    };
    const onFunction = (fn) => {
      for (const param of fn.params) check(fn, param);
    };
    return {
      FunctionDeclaration: onFunction,
      FunctionExpression: onFunction,
      ArrowFunctionExpression: onFunction,
      VariableDeclarator: (node) => check(innermostFunction(node), node.id),
      CatchClause: (node) => check(innermostFunction(node), node.param),
    };
  },
};
